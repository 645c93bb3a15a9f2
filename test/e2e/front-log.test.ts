import { describe, expect, inject, test, vi } from 'vitest';
import { API_PATHS, THANKS_PATHS } from '../../api/contract/index.ts';
import { raw } from '../front/client.ts';
import { OWN_STACK_TIMEOUT_MS, startStack } from '../support/stack.ts';

const shared = inject('stack');

describe('request log of npm start', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  test('e2e log: one line per request (method, path, status, duration); no query strings or e-mail addresses anywhere', async () => {
    const stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { LOG_REQUESTS: 'true' } });
    try {
      await raw(stack.url, `${THANKS_PATHS.en}?email=reader%40example.org&utm_source=x`);
      await raw(stack.url, `${API_PATHS.status}?token=secret-value`);
      await raw(stack.url, API_PATHS.waitlist, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'logged-never@example.org', consent: true }),
      });
      await raw(stack.url, '/someone@example.org/');
      await vi.waitFor(() => expect(stack.output()).toMatch(/^GET \/\[redacted\]\/ 404 /m), { timeout: 5_000, interval: 10 });
      const output = stack.output();
      expect(output).toMatch(new RegExp(`^GET ${THANKS_PATHS.en} 200 \\d+\\.\\dms$`, 'm'));
      expect(output).toMatch(new RegExp(`^GET ${API_PATHS.status} 200 \\d+\\.\\dms$`, 'm'));
      expect(output).toMatch(new RegExp(`^POST ${API_PATHS.waitlist} 200 \\d+\\.\\dms$`, 'm'));
      for (const secret of ['example.org', 'email=', 'utm_source', 'token=', 'secret-value']) expect(output).not.toContain(secret);
    } finally {
      await stack.stop();
    }
  });

  test('e2e log: LOG_REQUESTS=false prints no request lines', async () => {
    const stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { LOG_REQUESTS: 'false' } });
    try {
      await raw(stack.url, THANKS_PATHS.en);
      await raw(stack.url, API_PATHS.status);
    } finally {
      await stack.stop();
    }
    expect(stack.output()).not.toMatch(/^(GET|POST) \//m);
  });
});
