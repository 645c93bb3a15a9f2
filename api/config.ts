/**
 * The only reader of process.env. Every setting is parsed once, with every bad variable listed
 * together with what is expected, so that a start with a bad value stops with a useful message.
 * docs/configuration.md documents the same variables (test/api/configuration-doc.test.ts keeps them equal).
 */
import { Resolver } from 'node:dns';
import { z } from 'zod';

/** Reports the variable's problem; the transform then returns no value. */
function invalid(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** pino's levels, most severe first; `silent` logs nothing. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const flag = (fallback: 'true' | 'false') => z.enum(['true', 'false'], { message: 'expected true or false' }).default(fallback).transform((v) => v === 'true');

/** A key given as base64url (or base64) text that decodes to at least 32 bytes (RFC 7518 §3.2). */
const tokenKey = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return undefined;
    const bytes = Buffer.from(value, 'base64url');
    if (!/^[A-Za-z0-9_\-+/]+=*$/.test(value) || bytes.length < 32) {
      return invalid(ctx, 'expected at least 32 random bytes as base64url, e.g. from `openssl rand -base64 32`');
    }
    return new Uint8Array(bytes);
  });

const baseUrl = z.string().transform((value, ctx) => {
  const url = URL.parse(value);
  if (!url) return invalid(ctx, 'expected an absolute URL such as https://example.org');
  if (!['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username) {
    return invalid(ctx, 'expected an http(s) origin with no path, query or fragment, such as https://example.org');
  }
  return url.origin;
});

/** A comma-separated list; white space around an entry and empty entries are dropped. */
const commaList = z
  .string()
  .default('')
  .transform((value) => value.split(',').map((s) => s.trim()).filter(Boolean));

const trustProxy = commaList.transform((list, ctx) => {
  const bad = list.find((entry) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry));
  return bad === undefined ? list : invalid(ctx, `expected a comma-separated list of IP addresses or CIDR ranges, got "${bad}"`);
});

/** A URL of a server (database, Redis) with one of `protocols` and a host; its password never appears in a message. */
function serverUrl(kind: string, protocols: readonly string[], example: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const url = URL.parse(value);
      if (!url || !protocols.includes(url.protocol) || !url.hostname) {
        return invalid(ctx, `expected a ${kind} URL (${protocols.map((p) => `${p}//`).join(', ')}) such as ${example}`);
      }
      return value;
    });
}

/** Resolvers checked by node:dns itself. */
const dnsServers = commaList.transform((servers, ctx) => {
  try {
    new Resolver().setServers(servers);
  } catch {
    return invalid(ctx, 'expected a comma-separated list of resolver IP addresses, each with an optional port: 127.0.0.1:53, [::1]:53');
  }
  return servers;
});

/** contentsignals.org: `search`, `ai-input`, `ai-train`, each `yes` or `no`, comma-separated. */
const contentSignals = commaList.transform((pairs, ctx) => {
  const seen = new Set<string>();
  for (const pair of pairs) {
    const [, key] = /^(search|ai-input|ai-train)=(yes|no)$/.exec(pair) ?? [];
    if (!key || seen.has(key)) {
      return invalid(ctx, `expected search=, ai-input=, ai-train= each at most once with yes or no, e.g. "search=yes, ai-input=yes, ai-train=no"; got "${pair}"`);
    }
    seen.add(key);
  }
  return pairs.join(', ');
});

/** Browser origins allowed to call the API cross-origin: `https://app.example, http://localhost:3000`. */
const corsOrigins = commaList.transform((entries, ctx) => {
  const origins: string[] = [];
  for (const entry of entries) {
    const url = URL.parse(entry);
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== entry.replace(/\/$/, '')) {
      return invalid(ctx, `expected a comma-separated list of origins (scheme://host[:port], no path), got "${entry}"`);
    }
    origins.push(url.origin);
  }
  return origins;
});

/** valkey:// is an alias of redis:// (same protocol). */
const rateLimitStore = serverUrl('Redis', ['redis:', 'rediss:', 'valkey:'], 'redis://127.0.0.1:6379').transform((value) =>
  value?.startsWith('valkey:') ? `redis:${value.slice('valkey:'.length)}` : value,
);

/** SMTP_URL's STARTTLS modes: required (smtp:// default), opportunistic, or off (a loopback relay). */
const STARTTLS_MODES = ['required', 'opportunistic', 'off'] as const;

/** smtp:// with STARTTLS required unless `?starttls=` says otherwise; smtps:// with TLS from the first byte. */
const smtpUrl = serverUrl('SMTP', ['smtp:', 'smtps:'], 'smtp://user:password@mail.example.org:587').transform((value, ctx) => {
  if (value === undefined) return undefined;
  const url = new URL(value);
  const starttls = url.searchParams.get('starttls') ?? 'required';
  const extra = [...url.searchParams.keys()].filter((key) => key !== 'starttls');
  if (!(STARTTLS_MODES as readonly string[]).includes(starttls) || extra.length > 0 || (url.protocol === 'smtps:' && url.searchParams.has('starttls'))) {
    return invalid(ctx, `the only query parameter is starttls=${STARTTLS_MODES.join('|')}, and only with smtp:// (smtps:// is TLS from the start)`);
  }
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    starttls: starttls as (typeof STARTTLS_MODES)[number],
    user: decodeURIComponent(url.username) || undefined,
    password: decodeURIComponent(url.password) || undefined,
    /** For messages: the URL without its password. */
    shown: `${url.protocol}//${url.username ? `${url.username}@` : ''}${url.host}`,
  };
});

/** MAIL_FROM: `address@domain` or `Name <address@domain>`. */
const mailFrom = z
  .string()
  .regex(/^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/, 'expected an address such as invite@example.org or "Example <invite@example.org>"')
  .optional();

const contactUri = z
  .string()
  .regex(/^(mailto:|https:\/\/|tel:)\S+$/, 'expected a mailto:, https:// or tel: URI (RFC 9116 Contact)');

/** Each variable, its default and its meaning: docs/configuration.md. */
export const ConfigSchema = z.object({
  BASE_URL: baseUrl.default('http://localhost:4321'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(4321),
  HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(5_000),
  MAX_CONNECTIONS_PER_CLIENT: positiveInt.default(64),
  SIDECAR_LISTEN: z.enum(['socket', 'tcp'], { message: 'expected socket (a Unix domain socket in DATA_DIR) or tcp' }).default('socket'),
  SIDECAR_HOST: z.string().min(1).default('127.0.0.1'),
  SIDECAR_PORT: port.default(4322),
  SIDECAR_HOLD_MS: z.coerce.number().int().min(0).max(30_000).default(2_000),
  DATA_DIR: z.string().min(1).default('./data'),
  DIST_DIR: z.string().min(1).default('./dist'),
  TOKEN_KEY_PRODUCTION: tokenKey,
  TOKEN_KEY_SANDBOX: tokenKey,
  RATE_LIMIT_STANDARD: positiveInt.default(30),
  RATE_LIMIT_RELAXED: positiveInt.default(120),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
  RATE_LIMIT_IPV6_PREFIX: z.coerce.number().int().min(32).max(128).default(64),
  RATE_LIMIT_MAX_CLIENTS: positiveInt.default(100_000),
  RATE_LIMIT_STORE: rateLimitStore,
  REDIS_CA_FILE: z.string().min(1).optional(),
  TRUST_PROXY: trustProxy,
  SECURITY_CONTACT: contactUri.default('mailto:security@example.org'),
  CONTENT_SIGNALS: contentSignals.default('search=yes, ai-input=yes, ai-train=no'),
  CORS_ORIGINS: corsOrigins,
  ALLOW_SAMPLE_DETAILS: flag('false'),
  DATABASE_URL: serverUrl('PostgreSQL', ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
  DATABASE_POOL_WAIT_MS: z.coerce.number().int().min(1).max(60_000).default(500),
  PGSSLROOTCERT: z.string().min(1).optional(),
  SMTP_URL: smtpUrl,
  MAIL_FROM: mailFrom,
  DKIM_DOMAIN: z.string().regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'expected a domain such as example.org').optional(),
  DKIM_SELECTOR: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a selector such as mail2026').optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  INVITE_URL: serverUrl('web', ['https:', 'http:'], 'https://app.example.org/start'),
  DNS_SERVERS: dnsServers,
  LOG_REQUESTS: flag('true'),
  LOG_FORMAT: z.enum(['json', 'pretty'], { message: 'expected json or pretty' }).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee docs/configuration.md for every variable.`);
    this.problems = problems;
  }
}

/** Parses the environment (all variables at once); throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable counts as unset, like an absent one.
  const input = Object.keys(ConfigSchema.shape).map((key) => [key, env[key] || undefined]);
  const result = ConfigSchema.safeParse(Object.fromEntries(input));
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // A connection URL's password stays out of the message (and so out of logs).
      const shown = ['DATABASE_URL', 'RATE_LIMIT_STORE', 'SMTP_URL'].includes(name) ? (env[name] ?? '').replace(/^([a-z]+:\/\/[^:@/]*):[^@]*@/i, '$1:***@') : (env[name] ?? '');
      return `${name}=${JSON.stringify(shown)}: ${issue.message}`;
    });
    throw new ConfigError(problems);
  }
  const config = result.data;
  if (config.HEADERS_TIMEOUT_MS > config.REQUEST_TIMEOUT_MS) {
    // node:http refuses a header deadline beyond the whole-request one.
    throw new ConfigError([`HEADERS_TIMEOUT_MS=${JSON.stringify(env.HEADERS_TIMEOUT_MS ?? '')}: must not exceed REQUEST_TIMEOUT_MS (${config.REQUEST_TIMEOUT_MS})`]);
  }
  const dkim = (['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY_FILE'] as const).filter((name) => config[name] === undefined);
  if (dkim.length === 1 || dkim.length === 2) throw new ConfigError([`${dkim.join(', ')}: DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE together (or none of them)`]);
  return config;
}

/** For entry points: parse, or print the problems and exit non-zero. */
export function configOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
