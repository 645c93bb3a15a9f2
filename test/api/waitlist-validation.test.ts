/**
 * Waitlist validation, table-driven, in the contract's order (first failure answers):
 * content type (415) -> size (413) -> parsing (400) -> honeypot -> fields (400) -> e-mail (422) -> consent (422).
 * Every case runs on both waitlist paths in production and in the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, BODY_LIMIT_BYTES, ENVIRONMENTS } from '../../api/contract/index.ts';
import { send } from '../support/request.ts';
import { harness, type Harness } from './support/harness.ts';
import { envPath, FORM, formPost, jsonPost } from './support/requests.ts';

const valid = { email: 'ada@example.com', consent: true };
const over = 'x'.repeat(BODY_LIMIT_BYTES + 1);

interface Case {
  rule: string;
  init: RequestInit;
  status: number;
  error?: string;
}

const cases: Case[] = [
  // 1. content type
  { rule: 'text/plain -> 415 unsupported_media_type', init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(valid) }, status: 415, error: 'unsupported_media_type' },
  { rule: 'no content type -> 415', init: { method: 'POST', body: new Uint8Array(Buffer.from(JSON.stringify(valid))) }, status: 415, error: 'unsupported_media_type' },
  { rule: 'multipart/form-data -> 415', init: { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' }, status: 415, error: 'unsupported_media_type' },
  { rule: 'content type before size: text/plain over 64 KB -> 415', init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: over }, status: 415, error: 'unsupported_media_type' },
  { rule: 'media-type parameters are fine: application/json; charset=utf-8 -> 200', init: jsonPost(valid, { 'content-type': 'application/json; charset=utf-8' }), status: 200 },
  { rule: 'media type is case-insensitive: Application/JSON -> 200', init: jsonPost(valid, { 'content-type': 'Application/JSON' }), status: 200 },
  { rule: 'form with charset parameter -> 303', init: formPost('email=ada%40example.com&consent=on', { 'content-type': `${FORM};charset=UTF-8` }), status: 303 },
  // 2. size
  { rule: 'JSON body over 64 KB -> 413 payload_too_large', init: jsonPost({ ...valid, website: '', pad: over }), status: 413, error: 'payload_too_large' },
  { rule: 'size before parsing: malformed JSON over 64 KB -> 413', init: jsonPost(`{${over}`), status: 413, error: 'payload_too_large' },
  { rule: 'size before parsing: form over 64 KB -> 413', init: formPost(`email=${over}`), status: 413, error: 'payload_too_large' },
  { rule: 'a JSON body of exactly 64 KB is accepted -> 200', init: jsonPost(JSON.stringify(valid).padEnd(BODY_LIMIT_BYTES, ' ')), status: 200 },
  { rule: 'one byte over 64 KB -> 413', init: jsonPost(JSON.stringify(valid).padEnd(BODY_LIMIT_BYTES + 1, ' ')), status: 413, error: 'payload_too_large' },
  // 3. parsing
  { rule: 'malformed JSON -> 400 invalid_json', init: jsonPost('{"email":'), status: 400, error: 'invalid_json' },
  { rule: 'empty JSON body -> 400 invalid_json', init: jsonPost(''), status: 400, error: 'invalid_json' },
  { rule: 'invalid UTF-8 in JSON -> 400 invalid_json', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }, status: 400, error: 'invalid_json' },
  { rule: 'parsing before honeypot: malformed JSON with a website -> 400 invalid_json', init: jsonPost('{"website":"http://spam.example",'), status: 400, error: 'invalid_json' },
  { rule: 'malformed form (bad percent escape) -> 400 invalid_request', init: formPost('email=ada%ZZ&consent=on'), status: 400, error: 'invalid_request' },
  { rule: 'repeated form field -> 400 invalid_request', init: formPost('email=a%40example.com&email=b%40example.com&consent=on'), status: 400, error: 'invalid_request' },
  { rule: 'parsing before honeypot: repeated field with a website -> 400 invalid_request', init: formPost('website=x&consent=on&consent=on'), status: 400, error: 'invalid_request' },
  // 4. honeypot
  { rule: 'honeypot filled -> 200 accepted (discarded)', init: jsonPost({ ...valid, website: 'http://spam.example' }), status: 200 },
  { rule: 'honeypot before fields: unknown field, bad e-mail, no consent -> 200', init: jsonPost({ email: 'nope', website: 'x', admin: true }), status: 200 },
  { rule: 'honeypot in a form -> 303', init: formPost({ email: 'nope', website: 'x' }), status: 303 },
  { rule: 'empty honeypot is a normal sign-up -> 200', init: jsonPost({ ...valid, website: '' }), status: 200 },
  // 5. fields
  { rule: 'unknown field -> 400 invalid_request', init: jsonPost({ ...valid, admin: true }), status: 400, error: 'invalid_request' },
  { rule: 'unknown form field -> 400 invalid_request', init: formPost({ email: 'ada@example.com', consent: 'on', admin: '1' }), status: 400, error: 'invalid_request' },
  { rule: 'invalid enum value -> 400 invalid_request', init: jsonPost({ ...valid, role: 'ceo' }), status: 400, error: 'invalid_request' },
  { rule: 'enum values are case-sensitive -> 400 invalid_request', init: jsonPost({ ...valid, lang: 'DE' }), status: 400, error: 'invalid_request' },
  { rule: 'empty enum value in JSON -> 400 invalid_request', init: jsonPost({ ...valid, role: '' }), status: 400, error: 'invalid_request' },
  { rule: 'wrong type: e-mail as number -> 400 invalid_request', init: jsonPost({ email: 42, consent: true }), status: 400, error: 'invalid_request' },
  { rule: 'wrong type: lang null -> 400 invalid_request', init: jsonPost({ ...valid, lang: null }), status: 400, error: 'invalid_request' },
  { rule: 'wrong type: body is an array -> 400 invalid_request', init: jsonPost([valid]), status: 400, error: 'invalid_request' },
  { rule: 'fields before e-mail: bad e-mail and bad enum -> 400 invalid_request', init: jsonPost({ email: 'nope', consent: true, source: 'footer' }), status: 400, error: 'invalid_request' },
  { rule: 'empty select in a form means unanswered -> 303', init: formPost({ email: 'ada@example.com', consent: 'on', role: '', building: '', source: '', lang: '' }), status: 303 },
  // 6. e-mail
  { rule: 'invalid e-mail -> 422 invalid_email', init: jsonPost({ email: 'not-an-address', consent: true }), status: 422, error: 'invalid_email' },
  { rule: 'missing e-mail -> 422 invalid_email', init: jsonPost({ consent: true }), status: 422, error: 'invalid_email' },
  { rule: 'empty form -> 422 invalid_email', init: formPost(''), status: 422, error: 'invalid_email' },
  { rule: 'e-mail before consent: bad e-mail, no consent -> 422 invalid_email', init: jsonPost({ email: 'nope' }), status: 422, error: 'invalid_email' },
  // 7. consent
  { rule: 'consent false -> 422 consent_required', init: jsonPost({ ...valid, consent: false }), status: 422, error: 'consent_required' },
  { rule: 'consent missing -> 422 consent_required', init: jsonPost({ email: 'ada@example.com' }), status: 422, error: 'consent_required' },
  { rule: 'JSON consent "true" (a string) -> 422 consent_required', init: jsonPost({ ...valid, consent: 'true' }), status: 422, error: 'consent_required' },
  { rule: 'JSON consent 1 -> 422 consent_required', init: jsonPost({ ...valid, consent: 1 }), status: 422, error: 'consent_required' },
  { rule: 'form consent=on (checkbox) -> 303', init: formPost({ email: 'ada@example.com', consent: 'on' }), status: 303 },
  { rule: 'form consent=true -> 303', init: formPost({ email: 'ada@example.com', consent: 'true' }), status: 303 },
  { rule: 'form consent=yes -> 422 consent_required', init: formPost({ email: 'ada@example.com', consent: 'yes' }), status: 422, error: 'consent_required' },
  { rule: 'form without consent -> 422 consent_required', init: formPost({ email: 'ada@example.com' }), status: 422, error: 'consent_required' },
];

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

for (const env of ENVIRONMENTS) {
  for (const path of [API_PATHS.waitlist, API_PATHS.waitlistLegacy]) {
    describe(`${env} POST ${path}`, () => {
      for (const c of cases) {
        it(`waitlist: ${c.rule}`, async () => {
          const res = await send(h.app, envPath(env, path), c.init);
          expect(res.status).toBe(c.status);
          if (c.error) expect(res.body).toEqual({ error: c.error, message: expect.any(String) });
          else if (c.status === 200) expect(res.body).toEqual({ accepted: true });
          else expect(res.text).toBe('');
        });
      }
    });
  }
}
