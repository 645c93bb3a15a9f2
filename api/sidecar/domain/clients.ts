/**
 * OAuth clients (RFC 6749 §2.3.1): secrets are kept only as salted scrypt hashes and compared in
 * constant time. An unknown client id costs the same scrypt run as a known one, so the answer
 * time does not tell whether an id exists.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { z } from 'zod';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, SCOPES } from '../../contract/index.ts';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** N = 2^14, r = 8, p = 1 (16 MiB, within Node's default maxmem). Secrets are 256 random bits, so
 * the hash guards the file at rest; it does not have to slow down guessing of weak passwords. */
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

export const ClientRecord = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9._~-]+$/),
    name: z.string().min(1),
    createdAt: z.iso.datetime(),
    scopes: z.array(z.enum(SCOPES)),
    /** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
    secretHash: z.string().regex(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/),
  })
  .strict();
export type ClientRecord = z.infer<typeof ClientRecord>;

/** What the token endpoint needs to know about an authenticated client. */
export interface AuthenticatedClient {
  id: string;
  scopes: readonly string[];
}

export interface ClientDirectory {
  /** The client if `secret` is its secret; undefined for an unknown id or a wrong secret. */
  authenticate(id: string, secret: string): Promise<AuthenticatedClient | undefined>;
}

/** The production clients as the operator command (scripts/clients.ts) manages them, per engine. */
export interface ClientRegistry extends ClientDirectory {
  /** Every client, oldest first. */
  list(): Promise<ClientRecord[]>;
  /** Adds a client; resolves once durable. */
  create(record: ClientRecord): Promise<void>;
  /** Removes a client; resolves with whether there was one, once durable. */
  delete(id: string): Promise<boolean>;
}

/** Client ids and secrets use only [A-Za-z0-9_-] (base64url), so `curl -u` and form-encoding
 * clients such as oauth4webapi send values that decode to the same string. */
export function newClientId(): string {
  // An id is typed after `npm run clients -- delete`: one that began with "-" would read as an
  // option there, so such a draw (1 in 64) is drawn again.
  for (;;) {
    const id = randomBytes(12).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, KEY_LENGTH, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Hash of nothing, verified for unknown ids so they take as long as known ones. */
const DECOY_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${randomBytes(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

/** Authenticates against a list of records (the production clients file). */
export async function authenticateAgainst(records: readonly ClientRecord[], id: string, secret: string): Promise<AuthenticatedClient | undefined> {
  const record = records.find((candidate) => candidate.id === id);
  const [, n, r, p, salt, hash] = (record?.secretHash ?? DECOY_HASH).split('$');
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected) && record ? { id: record.id, scopes: record.scopes } : undefined;
}

function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Contract part 5: the sandbox's only client is the public `sandbox`/`sandbox`. */
export const sandboxClients: ClientDirectory = {
  async authenticate(id, secret) {
    const ok = sameSecret(id, SANDBOX_CLIENT_ID) && sameSecret(secret, SANDBOX_CLIENT_SECRET);
    return ok ? { id: SANDBOX_CLIENT_ID, scopes: SCOPES } : undefined;
  },
};
