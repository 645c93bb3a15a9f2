/**
 * Access tokens: HS256 JWTs shaped after RFC 9068 (typ at+jwt, iss, aud, sub, client_id, scope,
 * iat, exp, jti). HS256 is a deliberate deviation from RFC 9068 §2.1 (which wants RS256): the
 * issuer is the only resource server, so no third party needs to verify them.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, errors, jwtVerify, type JWTPayload } from 'jose';
import { TOKEN_TTL_SECONDS } from '../../contract/index.ts';

/** RFC 9068 §4 allows a small leeway on exp; a few seconds of clock skew between hosts is normal. */
const CLOCK_TOLERANCE_SECONDS = 30;

export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  client_id: string;
  scope: string;
  iat: number;
  exp: number;
  jti: string;
}

export interface Audience {
  issuer: string;
  audience: string;
}

export async function issueAccessToken(key: Uint8Array, target: Audience, clientId: string, scope: string, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ client_id: clientId, scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer(target.issuer)
    .setAudience(target.audience)
    .setSubject(clientId)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_TTL_SECONDS)
    .sign(key);
}

/** exp with the leeway, as jose checks it, and no iat in the future (jose accepts one; this server never issues one). */
export function withinLifetime(claims: { iat: number; exp: number }, nowMs: number): boolean {
  const now = nowMs / 1000;
  return claims.exp > Math.floor(now) - CLOCK_TOLERANCE_SECONDS && claims.iat <= now + CLOCK_TOLERANCE_SECONDS;
}

/** RFC 9068 §4 / RFC 8725 §3.1: pinned algorithm, explicit type, this environment's issuer and audience, every claim. Undefined: invalid_token. */
export async function verifyAccessToken(token: string, key: Uint8Array, target: Audience, nowMs: number): Promise<AccessTokenClaims | undefined> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      typ: 'at+jwt',
      issuer: target.issuer,
      audience: target.audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(nowMs),
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'sub', 'client_id', 'scope', 'jti'],
    }));
  } catch (error) {
    // A JOSE error is the token's fault; anything else (a broken key) is ours and must not pass
    // for an invalid token.
    if (error instanceof errors.JOSEError) return undefined;
    throw error;
  }
  const { iss, aud, sub, client_id, scope, jti, iat, exp } = payload;
  const strings = [iss, aud, sub, client_id, scope, jti].every((value) => typeof value === 'string');
  if (!strings || typeof iat !== 'number' || typeof exp !== 'number' || !withinLifetime({ iat, exp }, nowMs)) return undefined;
  return payload as unknown as AccessTokenClaims;
}
