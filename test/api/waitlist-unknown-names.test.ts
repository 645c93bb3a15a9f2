/**
 * Contract part 2: "An unknown field is rejected with 400 invalid_request. It is never ignored."
 * Names that touch the prototype chain (`__proto__`, `constructor`) are the ones a plain object would swallow.
 * Every name outside the schema, through both channels, on both paths and environments.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, ENVIRONMENTS, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, WaitlistSignup } from '../../api/contract/index.ts';
import { send } from '../support/request.ts';
import { harness, type Harness } from './support/harness.ts';
import { envPath, formPost, issueToken, jsonPost } from './support/requests.ts';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const SCHEMA_NAMES = new Set(Object.keys(WaitlistSignup.shape));

/** A JSON body whose own properties include `name` (a literal `{__proto__: x}` would set the prototype). */
function jsonWith(name: string, value: string): string {
  return `{"email":"ada@example.com","consent":true,${JSON.stringify(name)}:${JSON.stringify(value)}}`;
}
function formWith(name: string, value: string): string {
  return `email=ada%40example.com&consent=on&${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

let h: Harness;
let bearer: string;
beforeAll(async () => {
  h = await harness();
  const token = await issueToken(h.app, 'production', h.client.id, h.client.secret);
  bearer = `Bearer ${token.body.access_token}`;
});

/** The production total, read the way a client reads it (the stats endpoint). */
async function storedTotal(): Promise<number> {
  const res = await send(h.app, API_PATHS.stats, { headers: { authorization: bearer } });
  return res.body.total;
}
afterAll(() => h.close());

describe.each(ENVIRONMENTS)('%s waitlist: names outside the schema', (env) => {
  for (const path of [API_PATHS.waitlist, API_PATHS.waitlistLegacy]) {
    it.each(PROTOTYPE_NAMES)(`${path}: form field %s -> 400 invalid_request, nothing stored`, async (name) => {
      const before = await storedTotal();
      const res = await send(h.app, envPath(env, path), formPost(formWith(name, 'x')));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', message: expect.any(String) });
      expect(await storedTotal()).toBe(before);
    });

    it.each(PROTOTYPE_NAMES)(`${path}: JSON field %s -> 400 invalid_request`, async (name) => {
      const res = await send(h.app, envPath(env, path), jsonPost(jsonWith(name, 'x')));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', message: expect.any(String) });
    });
  }

  it('any generated name outside the schema -> 400 invalid_request through both channels (fast-check, seeded)', async () => {
    const name = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom(...PROTOTYPE_NAMES)).filter((n) => !SCHEMA_NAMES.has(n));
    await fc.assert(
      fc.asyncProperty(name, fc.string({ maxLength: 8 }), fc.boolean(), async (field, value, asJson) => {
        const init = asJson ? jsonPost(jsonWith(field, value)) : formPost(formWith(field, value));
        const res = await send(h.app, envPath(env, API_PATHS.waitlist), init);
        expect([res.status, res.body?.error]).toEqual([400, 'invalid_request']);
      }),
      { seed: 8_003, numRuns: 150 },
    );
  });
});

describe('token endpoint: names outside its parameters', () => {
  // RFC 6749 §3.2: "The authorization server MUST ignore unrecognized request parameters." The
  // form is read into a Map, so a prototype name is one more unrecognized parameter, nothing more.
  it.each(PROTOTYPE_NAMES)('token: an unrecognized parameter %s is ignored and the token is issued', async (name) => {
    const res = await send(h.app, envPath('sandbox', API_PATHS.token), formPost(`grant_type=client_credentials&client_id=${SANDBOX_CLIENT_ID}&client_secret=${SANDBOX_CLIENT_SECRET}&${encodeURIComponent(name)}=x`));
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
  });
});
