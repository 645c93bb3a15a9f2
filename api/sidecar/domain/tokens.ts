/**
 * Access tokens: HS256 JWTs shaped after RFC 9068 (typ at+jwt, iss, aud, sub, client_id, scope,
 * iat, exp, jti). HS256 is a deliberate deviation from RFC 9068 §2.1 (which wants RS256): the
 * issuer is the only resource server, so no third party needs to verify them.
 */
import { createSecretKey, randomUUID } from 'node:crypto';
import { SignJWT, errors, jwtVerify, type JWTPayload } from 'jose';
import { TOKEN_TTL_SECONDS } from '../../contract/index.ts';

/** RFC 9068 §4 allows a small leeway on exp; a few seconds of clock skew between hosts is normal. */
export const CLOCK_TOLERANCE_SECONDS = 30;

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

/** Each key as a WebCrypto HMAC key, made once: given the raw bytes, jose imports them on every call. */
const hmacKeys = new WeakMap<Uint8Array, CryptoKey>();

function hmacKey(key: Uint8Array): CryptoKey {
  let made = hmacKeys.get(key);
  if (!made) {
    made = createSecretKey(key).toCryptoKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']) as CryptoKey;
    hmacKeys.set(key, made);
  }
  return made;
}

export async function issueAccessToken(
  key: Uint8Array,
  target: Audience,
  clientId: string,
  scope: string,
  nowMs: number,
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ client_id: clientId, scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer(target.issuer)
    .setAudience(target.audience)
    .setSubject(clientId)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_TTL_SECONDS)
    .sign(hmacKey(key));
}

/**
 * Tokens this process has verified, with their claims, per key: a client polling the statistics
 * presents one token for its whole lifetime, and checking its signature (a WebCrypto job) was
 * about 40 % of such a request's CPU. Only tokens that passed every check enter, so a caller
 * cannot fill it; when it is full the oldest leaves. The clock is checked on every use.
 */
const REMEMBERED_PER_KEY = 1024;
const verifiedTokens = new WeakMap<Uint8Array, Map<string, AccessTokenClaims>>();

/** exp with the leeway, as jose checks it, and no iat in the future (jose accepts one; this server never issues one). */
function withinLifetime(claims: { iat: number; exp: number }, nowMs: number): boolean {
  const now = nowMs / 1000;
  return claims.exp > Math.floor(now) - CLOCK_TOLERANCE_SECONDS && claims.iat <= now + CLOCK_TOLERANCE_SECONDS;
}

/**
 * RFC 9068 §4 / RFC 8725 §3.1: pinned algorithm, explicit type, exact issuer and audience of this
 * environment, exp with a small leeway, every claim present. Undefined means invalid_token.
 */
export async function verifyAccessToken(
  token: string,
  key: Uint8Array,
  target: Audience,
  nowMs: number,
): Promise<AccessTokenClaims | undefined> {
  let remembered = verifiedTokens.get(key);
  const known = remembered?.get(token);
  if (known && known.iss === target.issuer && known.aud === target.audience) return withinLifetime(known, nowMs) ? known : undefined;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, hmacKey(key), {
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
  const claims = Object.freeze(payload as unknown as AccessTokenClaims);
  if (!remembered) verifiedTokens.set(key, (remembered = new Map()));
  if (remembered.size >= REMEMBERED_PER_KEY) remembered.delete(remembered.keys().next().value!);
  remembered.set(token, claims);
  return claims;
}
