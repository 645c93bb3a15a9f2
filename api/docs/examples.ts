/**
 * Examples of the document. Each is built from contract values and validated against its schema by
 * the tests (test/openapi/document.test.ts), so an example can never contradict the schema.
 */
import type { z } from 'zod';
import {
  Accepted,
  ApiIndex,
  BUILDING,
  ERROR_MESSAGES,
  LANGS,
  ROLES,
  SCOPES,
  SOURCES,
  TOKEN_TTL_SECONDS,
  Status,
  TokenRequest,
  TokenResponse,
  WaitlistStats,
  apiIndexBody,
  statusBody,
  environmentUrls,
  type ErrorCode,
  type MediaType,
  type Route,
  type WaitlistSignup,
} from '../contract/index.ts';
import { usesOAuthError } from './error-codes.ts';

export type Example = { summary: string; value: unknown };

const EXAMPLE_TIME = '2026-01-15T09:30:00.000Z';

export const EXAMPLE_SIGNUP: WaitlistSignup = {
  email: 'ada@example.com',
  consent: true,
  role: ROLES[0],
  building: BUILDING[0],
  source: SOURCES[0],
  lang: LANGS[0],
};

/** client_secret_basic sends no credentials in the body (RFC 6749 §2.3.1). */
export const EXAMPLE_TOKEN_REQUEST: TokenRequest = {
  grant_type: TokenRequest.shape.grant_type.value,
  scope: SCOPES.join(' '),
};

/** Splits `total` over `keys` with falling shares, so that every breakdown adds up to the total. */
function breakdown<K extends string>(keys: readonly K[], total: number): Record<K, number> {
  const out = {} as Record<K, number>;
  let left = total;
  keys.forEach((key, i) => {
    const share = i === keys.length - 1 ? left : Math.floor(left / 2);
    out[key] = share;
    left -= share;
  });
  return out;
}

function exampleStats(): WaitlistStats {
  const total = 128;
  return {
    total,
    last7Days: 12,
    last30Days: 47,
    byLang: breakdown(LANGS, total),
    byRole: breakdown([...ROLES, 'unanswered'] as const, total),
    byBuilding: breakdown([...BUILDING, 'unanswered'] as const, total),
    bySource: breakdown([...SOURCES, 'unanswered'] as const, total),
    computedAt: EXAMPLE_TIME,
  };
}

const EXAMPLE_TOKEN: TokenResponse = {
  access_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJleGFtcGxlIn0.c2lnbmF0dXJl',
  token_type: 'Bearer',
  expires_in: TOKEN_TTL_SECONDS,
  scope: SCOPES.join(' '),
};

/** The example of a 200 body, by its schema. */
export function successExample(schema: z.ZodType, baseUrl: string): Example {
  const examples = new Map<z.ZodType, Example>([
    [Status, { summary: 'The service is up', value: statusBody(environmentUrls(baseUrl, 'production'), 'production', Date.parse(EXAMPLE_TIME)) }],
    [TokenResponse, { summary: 'A token for the statistics scope', value: EXAMPLE_TOKEN }],
    [Accepted, { summary: 'Accepted (new, repeated or discarded sign-up)', value: { accepted: true } satisfies Accepted }],
    [WaitlistStats, { summary: 'Aggregate counts', value: exampleStats() }],
    [ApiIndex, { summary: 'Links of the production API', value: apiIndexBody(environmentUrls(baseUrl, 'production'), 'production') satisfies ApiIndex }],
  ]);
  const example = examples.get(schema);
  if (!example) throw new Error('a success schema has no example: add one in api/docs/examples.ts');
  return example;
}

/** The site's own form: consent is a checked box, and a choice not answered is sent empty. */
const EXAMPLE_SIGNUP_FORM = { ...EXAMPLE_SIGNUP, consent: 'on', building: '' };

export function requestExample(route: Route, type: MediaType = 'application/json'): Example {
  if (route.auth === 'client') return { summary: 'client_secret_basic: credentials in the Authorization header', value: EXAMPLE_TOKEN_REQUEST };
  if (type === 'application/x-www-form-urlencoded') return { summary: "The site's form: consent checked, use case not answered", value: EXAMPLE_SIGNUP_FORM };
  return { summary: 'A sign-up with every optional answer', value: EXAMPLE_SIGNUP };
}

export function errorExample(route: Route, status: number, code: ErrorCode): Example {
  const text = ERROR_MESSAGES[code];
  const value = usesOAuthError(route, status) ? { error: code, error_description: text } : { error: code, message: text };
  return { summary: code, value };
}
