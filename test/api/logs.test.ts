/** Logs: one line per request with method, path, status and duration; no address, secret or token. */
import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { send } from '../support/request.ts';
import { harness } from './support/harness.ts';
import { formPost, jsonPost, plainBasic } from './support/requests.ts';

describe('request log', () => {
  it('logs: one line per request (method, path without query, status, duration) and never an address, secret or token', async () => {
    const h = await harness();
    try {
      const secretEmail = 'private.person+tag@example.com';
      await send(h.app, API_PATHS.waitlist, jsonPost({ email: secretEmail, consent: true }));
      await send(h.app, API_PATHS.waitlist, jsonPost({ email: 'broken-address', consent: true }));
      const token = await send(h.app, API_PATHS.token, formPost('grant_type=client_credentials', { authorization: plainBasic(h.client.id, h.client.secret) }));
      await send(h.app, `${API_PATHS.token}?client_secret=${h.client.secret}`, formPost(`grant_type=client_credentials&client_id=${h.client.id}&client_secret=${h.client.secret}`));
      await send(h.app, `${API_PATHS.stats}?access_token=${token.body.access_token}`, { headers: { authorization: `Bearer ${token.body.access_token}` } });
      await send(h.app, `/api/v1/users/${encodeURIComponent(secretEmail)}`);
      await send(h.app, `/api/v1/users/${secretEmail}`);
      await send(h.app, `/api/v1/tokens/${token.body.access_token}`);
      await send(h.app, '/api/v1/x%0Aforged 200 0ms');

      expect(h.logger.lines).toHaveLength(9);
      expect(h.logger.lines[0]).toMatch(/^POST \/api\/v1\/waitlist 200 \d+\.\dms$/);
      expect(h.logger.lines[4]).toMatch(/^GET \/api\/v1\/waitlist\/stats 200 \d+\.\dms$/);
      const all = h.logger.lines.join('\n');
      for (const secret of [secretEmail, 'private.person', encodeURIComponent(secretEmail), h.client.secret, token.body.access_token, token.body.access_token.split('.')[1], '?']) {
        expect(all).not.toContain(secret);
      }
      expect(all.split('\n').every((line) => /^[A-Z]+ \S+ \d{3} \d+\.\dms$/.test(line))).toBe(true);
    } finally {
      await h.close();
    }
  });
});
