/** Waitlist behaviour: what is stored, merging, indistinguishable answers, the sandbox, the alias. */
import { readFile, stat } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, BODY_LIMIT_BYTES, CONSENT_TEXT_VERSION, ENVIRONMENTS, THANKS_PATHS } from '../../api/contract/index.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { send } from '../support/request.ts';
import { describeEachBackend } from './support/backends.ts';
import { harness, type Harness } from './support/harness.ts';
import { envPath, formPost, jsonPost, stableHeaders } from './support/requests.ts';

describeEachBackend('waitlist', (backend) => {
  let h: Harness;
  /** A harness of its own for each test of the enclosing describe: its tests read what the store holds. */
  const harnessEach = () => {
    beforeEach(async () => {
      h = await harness({}, backend);
    });
    afterEach(() => h.close());
  };
  /** One harness for the enclosing describe: its tests read no stored record, so what one wrote changes no other. */
  const harnessShared = () => {
    beforeAll(async () => {
      h = await harness({}, backend);
    });
    afterAll(() => h.close());
  };

  /** What is durably stored: the data file, or the committed rows over a connection of its own. */
  const storedRecords = (): Promise<WaitlistRecord[]> => h.durableRecords();

  describe('waitlist: storing', () => {
    harnessEach();
    it('waitlist: a JSON sign-up is on disk, lower-cased, with consent time and evidence, when answered 200', async () => {
      const res = await send(h.app, API_PATHS.waitlist, jsonPost({ email: 'Ada.Lovelace@Example.COM', consent: true, role: 'data', building: 'rag', source: 'cta', lang: 'de' }));
      expect(res.status).toBe(200);
      const now = new Date(h.clock.now()).toISOString();
      expect(await storedRecords()).toEqual([
        {
          email: 'ada.lovelace@example.com',
          createdAt: now,
          consentAt: now,
          updatedAt: now,
          lang: 'de',
          role: 'data',
          building: 'rag',
          source: 'cta',
          consent: { form: 'cta', channel: 'json', lang: 'de', textVersion: CONSENT_TEXT_VERSION },
        },
      ]);
    });

    it('waitlist: a form sign-up answers 303 to /thanks/, or /de/danke/ for lang=de, with no body', async () => {
      const en = await send(h.app, API_PATHS.waitlist, formPost({ email: 'a@example.com', consent: 'on' }));
      const de = await send(h.app, API_PATHS.waitlist, formPost({ email: 'b@example.com', consent: 'on', lang: 'de', source: 'hero' }));
      expect([en.status, en.headers.get('location'), en.text]).toEqual([303, THANKS_PATHS.en, '']);
      expect([de.status, de.headers.get('location'), de.text]).toEqual([303, THANKS_PATHS.de, '']);
      expect(en.headers.get('content-type')).toBeNull();
      const records = await storedRecords();
      expect(records.map((r) => [r.email, r.lang, r.consent.channel, r.consent.form])).toEqual([
        ['a@example.com', 'en', 'form', 'api'],
        ['b@example.com', 'de', 'form', 'hero'],
      ]);
    });

    it('waitlist: a repeated address merges answers, moves the consent time and keeps the first sign-up time', async () => {
      const first = new Date(h.clock.now()).toISOString();
      await send(h.app, API_PATHS.waitlist, jsonPost({ email: 'grace@example.com', consent: true, role: 'developer', building: 'agents', source: 'hero', lang: 'de' }));
      h.clock.advance(3600);
      const second = new Date(h.clock.now()).toISOString();
      const res = await send(h.app, API_PATHS.waitlistLegacy, jsonPost({ email: 'GRACE@example.com', consent: true, role: 'founder' }));
      expect(res.status).toBe(200);
      const [record, ...rest] = await storedRecords();
      expect(rest).toEqual([]);
      expect(record).toMatchObject({ email: 'grace@example.com', createdAt: first, consentAt: second, updatedAt: second });
      expect(record).toMatchObject({ role: 'founder', building: 'agents', source: 'hero', lang: 'de' });
      expect(record.consent).toEqual({ form: 'api', channel: 'json', lang: 'en', textVersion: CONSENT_TEXT_VERSION });
    });
  });

  describe('waitlist: e-mail rules', () => {
    harnessEach();
    const accepted: [string, string][] = [
      ['  Ada@Example.com \n', 'ada@example.com'],
      ['user+tag@example.com', 'user+tag@example.com'],
      ['first.last@sub.example.co.uk', 'first.last@sub.example.co.uk'],
      ['user@münchen.de', 'user@xn--mnchen-3ya.de'],
      ['user@XN--MNCHEN-3YA.de', 'user@xn--mnchen-3ya.de'],
      [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`, `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`],
    ];
    const rejected: [string, string][] = [
      ['quoted local part', '"a b"@example.com'],
      ['non-ASCII local part', 'jörg@example.de'],
      ['no domain dot', 'a@localhost'],
      ['address literal', 'a@[127.0.0.1]'],
      ['double dot', 'a..b@example.com'],
      ['trailing dot in domain', 'a@example.com.'],
      ['two @', 'a@b@example.com'],
      ['inner whitespace', 'a b@example.com'],
      ['255 characters', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`],
      // 250 characters as typed, 313 in punycode: the limit applies to the stored form.
      ['within 254 characters only before punycode', `${'a'.repeat(64)}@${new Array(7).fill('äöüéèàçñ'.repeat(3)).join('.')}.example.de`],
    ];
    for (const [input, stored] of accepted) {
      it(`waitlist: ${JSON.stringify(input.slice(0, 40))} is accepted and stored as ${JSON.stringify(stored.slice(0, 40))}`, async () => {
        const res = await send(h.app, API_PATHS.waitlist, jsonPost({ email: input, consent: true }));
        expect(res.status).toBe(200);
        expect((await storedRecords()).map((r) => r.email)).toEqual([stored]);
      });
    }
    for (const [why, input] of rejected) {
      it(`waitlist: ${why} -> 422 invalid_email, nothing stored`, async () => {
        const res = await send(h.app, API_PATHS.waitlist, jsonPost({ email: input, consent: true }));
        expect([res.status, res.body.error]).toEqual([422, 'invalid_email']);
        expect(await storedRecords()).toEqual([]);
      });
    }
  });

  describe('waitlist: new, repeated and discarded sign-ups are indistinguishable', () => {
    harnessEach();
    for (const [kind, post] of [
      ['JSON', (email: string, website = '') => jsonPost({ email, consent: true, lang: 'de', website })],
      ['form', (email: string, website = '') => formPost({ email, consent: 'on', lang: 'de', website })],
    ] as const) {
      it(`waitlist: ${kind} new, repeated and honeypot answers differ only in rate-limit counts, and each waits for a commit`, async () => {
        const answers = [];
        for (const init of [post('new@example.com'), post('new@example.com'), post('bot@example.com', 'http://spam.example')]) {
          const commits = h.store.commits;
          const res = await send(h.app, API_PATHS.waitlist, init);
          // Each answer, the discarded one included, came after one durable write of the file.
          answers.push({ status: res.status, headers: stableHeaders(res.headers), text: res.text, commits: h.store.commits - commits });
        }
        expect(answers[0].commits).toBe(1);
        expect(answers[1]).toEqual(answers[0]);
        expect(answers[2]).toEqual(answers[0]);
        expect((await storedRecords()).map((r) => r.email)).toEqual(['new@example.com']);
      });
    }
  });

  describe('waitlist: sandbox', () => {
    harnessEach();
    it('waitlist: the sandbox validates like production and leaves the store untouched', async () => {
      const before = h.engine === 'json' ? await readFile(h.dataFile) : undefined;
      const inode = h.engine === 'json' ? (await stat(h.dataFile)).ino : undefined;
      const commits = h.store.commits;
      for (const path of [API_PATHS.waitlist, API_PATHS.waitlistLegacy]) {
        expect((await send(h.app, envPath('sandbox', path), jsonPost({ email: 'sb@example.com', consent: true }))).status).toBe(200);
        expect((await send(h.app, envPath('sandbox', path), formPost({ email: 'sb@example.com', consent: 'on', lang: 'de' }))).headers.get('location')).toBe(THANKS_PATHS.de);
        expect((await send(h.app, envPath('sandbox', path), jsonPost({ email: 'sb@example.com', consent: true, website: 'x' }))).status).toBe(200);
        expect((await send(h.app, envPath('sandbox', path), jsonPost({ email: 'sb@example.com' }))).status).toBe(422);
      }
      if (h.engine === 'json') {
        expect(await readFile(h.dataFile)).toEqual(before);
        expect((await stat(h.dataFile)).ino).toBe(inode);
      }
      expect(h.store.commits).toBe(commits);
      expect(await h.store.count()).toBe(0);
    });
  });

  describe('waitlist: deprecated alias', () => {
    harnessShared();
    for (const env of ENVIRONMENTS) {
      it(`waitlist: ${env} POST /api/waitlist says it is deprecated (RFC 9745) and names its successor`, async () => {
        const successor = envPath(env, API_PATHS.waitlist);
        for (const init of [jsonPost({ email: 'x@example.com', consent: true }), formPost({ email: 'x@example.com', consent: 'on' }), jsonPost('{')]) {
          const res = await send(h.app, envPath(env, API_PATHS.waitlistLegacy), init);
          expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
          expect(res.headers.get('link')).toBe(`<${successor}>; rel="successor-version"`);
        }
        const current = await send(h.app, successor, jsonPost({ email: 'x@example.com', consent: true }));
        expect(current.headers.get('deprecation')).toBeNull();
      });
    }
  });

  describe('waitlist: methods, body size, failures', () => {
    harnessShared();
    for (const env of ENVIRONMENTS) {
      for (const path of [API_PATHS.waitlist, API_PATHS.waitlistLegacy]) {
        it(`waitlist: ${env} ${path} with GET, HEAD, PUT, DELETE, OPTIONS or FOO -> 405 with Allow: POST`, async () => {
          for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'FOO']) {
            const res = await send(h.app, envPath(env, path), { method });
            expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST']);
            if (method !== 'HEAD') expect(res.body.error).toBe('method_not_allowed');
          }
        });

        it(`waitlist: ${env} ${path} a 10 MB streamed body is cancelled after 64 KB -> 413`, async () => {
          let pulled = 0;
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulled >= 10_000_000) return controller.close();
              pulled += 16_384;
              controller.enqueue(new Uint8Array(16_384).fill(0x20));
            },
          });
          const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit;
          const res = await send(h.app, envPath(env, path), init);
          expect([res.status, res.body.error]).toEqual([413, 'payload_too_large']);
          expect(pulled).toBeLessThan(BODY_LIMIT_BYTES + 8 * 16_384);
        });

        it(`waitlist: ${env} ${path} a request body that fails while reading -> 500 internal_error, detail only in the log`, async () => {
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              controller.error(new Error('socket hang up at sensitive-internal-detail'));
            },
          });
          const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit;
          const res = await send(h.app, envPath(env, path), init);
          expect(res.status).toBe(500);
          expect(res.body).toEqual({ error: 'internal_error', message: expect.any(String) });
          expect(res.text).not.toContain('sensitive-internal-detail');
          expect(h.logger.lines.some((line) => line.includes('sensitive-internal-detail'))).toBe(true);
        });
      }
    }

    // Last: it breaks the store this describe shares.
    it('waitlist: a store that cannot write -> 500 internal_error, and the request is not answered 200', async () => {
      await h.breakStore();
      const res = await send(h.app, API_PATHS.waitlist, jsonPost({ email: 'lost@example.com', consent: true }));
      expect([res.status, res.body.error]).toEqual([500, 'internal_error']);
      expect(res.text).not.toContain(h.dir);
    });
  });
});
