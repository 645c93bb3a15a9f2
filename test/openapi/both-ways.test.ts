/**
 * The OpenAPI document describes what the server accepts, both ways: sign-up bodies generated from
 * the document's own request schemas (JSON `WaitlistSignup`, form `WaitlistSignupForm`), valid
 * ones and ones broken field by field, are sent to the in-process sidecar; every body the document
 * accepts is accepted (200 or 303), every body it refuses is refused (400 or 422), and the answer
 * itself is held to the document (support/request.ts). The document's verdict is Ajv over its
 * schemas plus what the schemas' descriptions add: the length of an internationalised address
 * counts its ASCII form, and a filled honeypot is answered like an accepted sign-up.
 */
import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH, ENV_PREFIX, routeById } from '../../api/contract/index.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import type { JsonSchema } from '../../api/docs/json-schemas.ts';
import { resolveSchema } from '../../api/docs/schema-fields.ts';
import { BASE_URL, harness, type Harness } from '../api/support/harness.ts';
import { schemaErrors } from '../support/openapi.ts';
import { send } from '../support/request.ts';

const doc = buildOpenApiDocument(BASE_URL);
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const route = routeById('joinWaitlist');
const operation = doc.paths[route.path]!.post!;
const bodySchema = (type: string): JsonSchema => operation.requestBody!.content[type]!.schema;
const RUNS = 150;

/**
 * Letters for the document's `\p{L}` and `\p{M}` when a pattern becomes a generator: Latin with
 * diacritics, German, Greek, Cyrillic and Han, all of which IDNA maps to an ASCII form.
 */
const LETTERS = 'a-zA-Zà-öø-ÿßа-яА-Яα-ω中文字';
const MARKS = '\\u0301';

/** A string generator for a string schema of the document: its enum, its const or its patterns. */
function stringFrom(schema: JsonSchema): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (typeof schema.const === 'string') return fc.constant(schema.const);
  const patterns = ((schema.allOf as JsonSchema[] | undefined) ?? [schema]).map((s) => s.pattern).filter((p): p is string => typeof p === 'string');
  if (patterns.length === 0) return fc.string({ maxLength: 12 });
  // The most specific pattern generates; the others filter.
  const generator = patterns.reduce((a, b) => (b.length > a.length ? b : a));
  const source = generator.replaceAll('\\p{L}', LETTERS).replaceAll('\\p{M}', MARKS);
  return fc.stringMatching(new RegExp(source, 'u')).filter((value) => patterns.every((p) => new RegExp(p, 'u').test(value)));
}

function valueFrom(schema: JsonSchema): fc.Arbitrary<unknown> {
  const resolved = resolveSchema(doc, schema);
  if ('const' in resolved) return fc.constant(resolved.const);
  if (resolved.type === 'boolean') return fc.boolean();
  return stringFrom(resolved);
}

/** Bodies the schema accepts: every required field, each optional one or not (the honeypot left empty). */
function validBody(type: string): fc.Arbitrary<Record<string, unknown>> {
  const schema = resolveSchema(doc, bodySchema(type));
  const required = new Set(schema.required as string[]);
  const fields = Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) => {
    const value = name === 'website' ? fc.constant('') : valueFrom(property);
    return fc.tuple(fc.constant(name), required.has(name) ? value : fc.option(value, { nil: undefined }));
  });
  return fc.tuple(...fields).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)));
}

/** Addresses broken in the ways a client gets them wrong. */
const badEmail = fc.oneof(
  fc.constantFrom('', 'ada', 'ada@', '@example.com', 'ada@example', 'ada@@example.com', 'a..b@example.com', '.ada@example.com', 'ada.@example.com', 'ada@example.c', 'ada@example.c0m', 'ada@-.com', 'a da@example.com', '"ada"@example.com', 'ädä@example.com', 'ada@example.com.', 'ada@пример.рф', 'ada@exam_ple.com'),
  fc.integer({ min: EMAIL_MAX_LENGTH - 10, max: EMAIL_MAX_LENGTH + 10 }).map((n) => `${'a'.repeat(Math.max(1, n - '@example.com'.length))}@example.com`),
  fc.integer({ min: 60, max: 70 }).map((n) => `a@${'ü'.repeat(n)}.${'ü'.repeat(n)}.${'ü'.repeat(n)}.de`),
);

/** A valid body with one thing wrong: a field missing, an unknown field, or a value outside its schema. */
function brokenBody(type: string): fc.Arbitrary<Record<string, unknown>> {
  const schema = resolveSchema(doc, bodySchema(type));
  const names = Object.keys(schema.properties as object);
  const asText = (v: unknown) => (type === FORM_TYPE ? String(v) : v);
  // Near misses too: the values of one media type are often wrong in the other.
  const otherValue = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom<unknown>(1, null, false, true, '', 'true', 'on', 'yes', 'TRUE', 'Developer', 'off', [], {}));
  // The other media type's values for the same field: what a client mixing the two would send.
  const twin = resolveSchema(doc, bodySchema(type === JSON_TYPE ? FORM_TYPE : JSON_TYPE)).properties as Record<string, JsonSchema>;
  const nearMiss = fc.record(Object.fromEntries(names.map((name) => [name, valueFrom(twin[name]!)])));
  return fc.tuple(validBody(type), fc.nat(), otherValue, nearMiss, fc.boolean(), badEmail, fc.string({ minLength: 1, maxLength: 8 }), fc.nat(3)).map(([body, n, other, near, useNear, email, unknown, how]) => {
    const out: Record<string, unknown> = { ...body };
    const field = names.filter((name) => name !== 'website')[n % (names.length - 1)]!;
    if (how === 0) delete out[(schema.required as string[])[n % 2]!];
    else if (how === 1) out[names.includes(unknown) ? `${unknown}_` : unknown] = asText(other);
    else if (how === 2) out[field] = asText(useNear ? near[field] : other);
    else out.email = email;
    return out;
  });
}

/** The document's verdict: its schema (Ajv), and the length rule its EmailAddress description adds for the ASCII form. */
function documentAccepts(type: string, body: Record<string, unknown>): boolean {
  if (schemaErrors(bodySchema(type), body, doc).length > 0) return false;
  const address = String(body.email).trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const ascii = `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1)) || address.slice(at + 1)}`;
  return ascii.length <= EMAIL_MAX_LENGTH;
}

/** The honeypot's description: a non-empty value is answered like an accepted sign-up. */
const honeypotFilled = (body: Record<string, unknown>) => 'website' in body && body.website !== '';

function encode(type: string, body: Record<string, unknown>): string {
  return type === JSON_TYPE ? JSON.stringify(body) : new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
}

describe('openapi: the server accepts exactly what the document accepts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.close();
  });

  /** Sends to the sandbox (same validation, nothing stored); true when the sign-up was accepted. */
  async function serverAccepts(type: string, body: Record<string, unknown>): Promise<boolean> {
    const res = await send(h.app, `${ENV_PREFIX.sandbox}${route.path}`, { method: 'POST', headers: { 'content-type': type }, body: encode(type, body) });
    if (res.status === (type === JSON_TYPE ? 200 : 303)) return true;
    expect([400, 422], `${res.status} ${JSON.stringify(res.body)} for ${encode(type, body)}`).toContain(res.status);
    return false;
  }

  /** Sends every generated body and checks the verdicts agree; returns how many the document accepted and refused. */
  async function agree(type: string, arbitrary: fc.Arbitrary<Record<string, unknown>>, seed: number): Promise<{ accepted: Record<string, unknown>[]; refused: number }> {
    const seen = { accepted: [] as Record<string, unknown>[], refused: 0 };
    await fc.assert(
      fc.asyncProperty(arbitrary, async (body) => {
        const expected = honeypotFilled(body) || documentAccepts(type, body);
        expect(await serverAccepts(type, body), `document says ${expected ? 'accept' : 'refuse'}: ${encode(type, body)}`).toBe(expected);
        if (expected) seen.accepted.push(body);
        else seen.refused += 1;
      }),
      { seed, numRuns: RUNS },
    );
    return seen;
  }

  it.each([JSON_TYPE, FORM_TYPE])('document both ways (%s): every body generated from the schema is accepted, internationalised and padded addresses among them', async (type) => {
    const { accepted } = await agree(type, validBody(type).filter((body) => documentAccepts(type, body)), 19_1);
    const emails = accepted.map((body) => String(body.email));
    expect(emails.filter((email) => /[^\x00-\x7f]/.test(email.split('@')[1]!)).length).toBeGreaterThan(RUNS / 4);
    expect(emails.filter((email) => email !== email.trim()).length).toBeGreaterThan(RUNS / 4);
  });

  it.each([JSON_TYPE, FORM_TYPE])('document both ways (%s): a body with a field missing, unknown or outside its schema is refused, as the document refuses it', async (type) => {
    const { refused } = await agree(type, brokenBody(type), 19_2);
    expect(refused).toBeGreaterThan(RUNS / 2);
  });

  it.each([JSON_TYPE, FORM_TYPE])('document both ways (%s): a filled honeypot is answered like an accepted sign-up, whatever else the body holds', async (type) => {
    const filled = fc.tuple(fc.oneof(validBody(type), brokenBody(type)), fc.string({ minLength: 1, maxLength: 6 })).map(([body, website]) => ({ ...body, website }));
    await agree(type, filled, 19_3);
  });

  it("document both ways: the site's own form (role= and building= empty, consent=on) and internationalised, padded addresses are in the document and accepted", async () => {
    const form = { email: '  Ada@München.de ', consent: 'on', role: '', building: '', source: 'hero', lang: 'de' };
    expect(documentAccepts(FORM_TYPE, form)).toBe(true);
    expect(await serverAccepts(FORM_TYPE, form)).toBe(true);
    const json = { email: '\tuser+tag@Straße.example\n', consent: true };
    expect(documentAccepts(JSON_TYPE, json)).toBe(true);
    expect(await serverAccepts(JSON_TYPE, json)).toBe(true);
  });
});
