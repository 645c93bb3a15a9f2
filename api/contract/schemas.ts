/**
 * Part 2: the resources, as zod schemas. Types come from `z.infer`; the OpenAPI document is
 * generated from these schemas (`z.toJSONSchema`), and the sidecar validates with them.
 */
import { z } from 'zod';
import { BUILDING, ENVIRONMENTS, LANGS, ROLES, SOURCES, type Environment } from './enums.ts';
import { ERROR_CODES, OAUTH_ERROR_CODES } from './errors.ts';
import { API_VERSION, EMAIL_MAX_LENGTH, SERVICE_NAME, TOKEN_TTL_SECONDS } from './limits.ts';
import type { EnvironmentUrls } from './paths.ts';

/**
 * The e-mail field as a client sends it, before the server normalises it (api/sidecar/domain/email.ts):
 * two patterns and a description (docs/openapi.md, "Request bodies as they are sent"). U+212A, the
 * Kelvin sign, is in the local part because lower-casing turns it into `k`.
 */
const EMAIL_LOCAL_CHAR = "A-Za-z0-9_'+\\-\\u212A";
const EMAIL_LOCAL = `(?:[${EMAIL_LOCAL_CHAR}]+\\.)*[${EMAIL_LOCAL_CHAR}]*[A-Za-z0-9_+\\-\\u212A]`;
const EMAIL_DOMAIN = '(?:[\\p{L}0-9][\\p{L}\\p{M}0-9\\-]*\\.)+[A-Za-z]{2,}';

export const EmailAddress = z
  .string()
  // The length rule, counted on the address without the white space around it.
  .regex(new RegExp(`^\\s*\\S{1,${EMAIL_MAX_LENGTH}}\\s*$`, 'u'))
  .regex(new RegExp(`^\\s*${EMAIL_LOCAL}@${EMAIL_DOMAIN}\\s*$`, 'u'))
  .meta({
    id: 'EmailAddress',
    title: 'EmailAddress',
    format: 'idn-email',
    description:
      `E-mail address, as sent. White space around it is trimmed. The address is then lower-cased and an internationalised ` +
      `domain converted to ASCII (IDNA, UTS #46, as WHATWG URL does: \`a@münchen.de\` is stored as \`a@xn--mnchen-3ya.de\`); ` +
      `that form is what is stored and must have at most ${EMAIL_MAX_LENGTH} characters. The local part is ASCII: ` +
      "letters, digits, `_`, `'`, `+`, `-` and dots between them. The last label of the domain is ASCII letters.",
  });

const HONEYPOT = z
  .string()
  .optional()
  .describe('Honeypot: must stay empty. A non-empty value ends the request silently: the answer is that of an accepted sign-up, and nothing is stored.');

/**
 * WaitlistSignup as the sidecar validates it, after the e-mail address is normalised
 * (api/sidecar/domain/signup.ts); the types of the store come from it.
 */
export const WaitlistSignup = z
  .object({
    email: z.email().max(EMAIL_MAX_LENGTH).describe('E-mail address; stored lower-cased.'),
    consent: z.literal(true).describe('Explicit consent of the address owner; must be true.'),
    role: z.enum(ROLES).optional().describe('What describes you best.'),
    building: z.enum(BUILDING).optional().describe('What you are building.'),
    source: z.enum(SOURCES).optional().describe('Which form on the site was used.'),
    lang: z.enum(LANGS).optional().describe('Language of the later notification; default en.'),
    website: HONEYPOT,
  })
  .strict();
export type WaitlistSignup = z.infer<typeof WaitlistSignup>;

/** WaitlistSignup as a client sends it in JSON (the OpenAPI document's application/json body). */
export const WaitlistSignupJson = WaitlistSignup.extend({ email: EmailAddress }).meta({ id: 'WaitlistSignup', title: 'WaitlistSignup' });

/** What a checked box sends: its default value `on` (HTML), or `true` from a script. */
export const FORM_CONSENT_VALUES = ['on', 'true'] as const;
/** In a form, an empty choice (an unselected <select>) means not answered. */
const blankOr = <const T extends readonly string[]>(values: T) => z.enum(['', ...values]);

/**
 * WaitlistSignup as a form sends it (application/x-www-form-urlencoded): every value is text, the
 * site's own form sends `role=` and `building=` when they are not answered, and its consent box
 * sends `consent=on`. A field may appear once; a repeated one is 400 invalid_request.
 */
export const WaitlistSignupForm = z
  .object({
    email: EmailAddress,
    consent: z.enum(FORM_CONSENT_VALUES).describe('Explicit consent of the address owner: a checked box (`on`) or `true`.'),
    role: blankOr(ROLES).optional().describe('What describes you best; empty: not answered.'),
    building: blankOr(BUILDING).optional().describe('What you are building; empty: not answered.'),
    source: blankOr(SOURCES).optional().describe('Which form on the site was used; empty: not answered.'),
    lang: blankOr(LANGS).optional().describe('Language of the later notification and of the thanks page; default en; empty: the default.'),
    website: HONEYPOT,
  })
  .strict()
  .meta({ id: 'WaitlistSignupForm', title: 'WaitlistSignupForm' });

/** Accepted: 200 body of the waitlist operations, identical for new, repeated and discarded requests. */
export const Accepted = z
  .object({ accepted: z.literal(true) })
  .strict()
  .meta({ id: 'Accepted', title: 'Accepted' });
export type Accepted = z.infer<typeof Accepted>;

/** Status: 200 body of the status probe; exactly these seven fields. */
export const Status = z
  .object({
    status: z.literal('ok'),
    service: z.literal(SERVICE_NAME),
    apiVersion: z.literal(API_VERSION),
    environment: z.enum(ENVIRONMENTS),
    time: z.iso.datetime().describe('Current server time, ISO 8601 UTC.'),
    docs: z.url().describe('Absolute URL of the API guide page.'),
    openapi: z.url().describe('Absolute URL of the OpenAPI document.'),
  })
  .strict()
  .meta({ id: 'Status', title: 'Status' });
export type Status = z.infer<typeof Status>;

const count = z.int().min(0);
/** A count for each of `keys`, and no other key. */
function countsOf<const K extends string>(keys: readonly K[]) {
  return z.object(Object.fromEntries(keys.map((key) => [key, count])) as Record<K, typeof count>).strict();
}

/** WaitlistStats: aggregate counts only, no personal data (field names are our design). */
export const WaitlistStats = z
  .object({
    total: count.describe('All sign-ups.'),
    last7Days: count.describe('Sign-ups first made in the last 7 days.'),
    last30Days: count.describe('Sign-ups first made in the last 30 days.'),
    byLang: countsOf(LANGS).describe('Sign-ups by notification language.'),
    byRole: countsOf([...ROLES, 'unanswered']).describe('Sign-ups by role; unanswered when not given.'),
    byBuilding: countsOf([...BUILDING, 'unanswered']).describe('Sign-ups by use case; unanswered when not given.'),
    bySource: countsOf([...SOURCES, 'unanswered']).describe('Sign-ups by form; unanswered for API sign-ups without source.'),
    computedAt: z.iso.datetime().describe('When these numbers were computed, ISO 8601 UTC.'),
  })
  .strict()
  .meta({ id: 'WaitlistStats', title: 'WaitlistStats' });
export type WaitlistStats = z.infer<typeof WaitlistStats>;

/** TokenRequest: form body of the token endpoint (RFC 6749 §4.4.2). Unknown parameters are ignored. */
export const TokenRequest = z
  .object({
    grant_type: z.literal('client_credentials'),
    client_id: z.string().optional().describe('Only with client_secret_post.'),
    client_secret: z.string().optional().describe('Only with client_secret_post.'),
    scope: z.string().optional().describe('Space-delimited scopes; omitted means all scopes of the client.'),
    resource: z
      .url()
      .optional()
      .describe(
        'RFC 8707 resource indicator: this server\'s API (its URL + `/api/v1`, the default when omitted) or its MCP ' +
          'endpoint (its URL + `/api/mcp`). The token is valid only there; any other value is 400 invalid_target.',
      ),
  })
  .meta({ id: 'TokenRequest', title: 'TokenRequest' });
export type TokenRequest = z.infer<typeof TokenRequest>;

/** TokenResponse: RFC 6749 §5.1. */
export const TokenResponse = z
  .object({
    access_token: z.string().describe('HS256 JWT (typ at+jwt).'),
    token_type: z.literal('Bearer'),
    expires_in: z.literal(TOKEN_TTL_SECONDS),
    scope: z.string().describe('Granted scopes, space-delimited.'),
  })
  .strict()
  .meta({ id: 'TokenResponse', title: 'TokenResponse' });
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Error: every error response except the token endpoint's 400 and 401. */
export const ErrorBody = z
  .object({ error: z.enum(ERROR_CODES), message: z.string() })
  .strict()
  .meta({ id: 'Error', title: 'Error' });

/** OAuthError: 400 and 401 of the token endpoint (RFC 6749 §5.2). */
export const OAuthErrorBody = z
  .object({ error: z.enum(OAUTH_ERROR_CODES), error_description: z.string() })
  .strict()
  .meta({ id: 'OAuthError', title: 'OAuthError' });

/** ApiIndex: the zero-auth index of a base path (shape is our design). */
export const ApiIndex = z
  .object({
    service: z.literal(SERVICE_NAME),
    apiVersion: z.literal(API_VERSION),
    environment: z.enum(ENVIRONMENTS),
    links: z
      .object({
        status: z.url(),
        token: z.url(),
        stats: z.url(),
        waitlist: z.url(),
        openapi: z.url(),
        openapiMarkdown: z.url(),
        apiCatalog: z.url(),
        authorizationServerMetadata: z.url(),
        protectedResourceMetadata: z.url(),
        guide: z.url(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'ApiIndex', title: 'ApiIndex' });
export type ApiIndex = z.infer<typeof ApiIndex>;

/** Operation 1's body, for the sidecar and the docs' example: the status of `env` at `now` (ms), with its docs links. */
export function statusBody(urls: EnvironmentUrls, env: Environment, now: number): Status {
  return {
    status: 'ok',
    service: SERVICE_NAME,
    apiVersion: API_VERSION,
    environment: env,
    time: new Date(now).toISOString(),
    docs: urls.guide,
    openapi: urls.openapi,
  };
}

/** Operation 6's body, likewise: the index of `env`, every link absolute, from that environment's URLs. */
export function apiIndexBody(urls: EnvironmentUrls, env: Environment): ApiIndex {
  return {
    service: SERVICE_NAME,
    apiVersion: API_VERSION,
    environment: env,
    // The links the schema lists, in its order, each the environment's URL of that name.
    links: Object.fromEntries(ApiIndex.shape.links.keyof().options.map((name) => [name, urls[name]])) as ApiIndex['links'],
  };
}
