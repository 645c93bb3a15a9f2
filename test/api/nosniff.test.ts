/** `X-Content-Type-Options: nosniff` on every answer of the sidecar's API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, ENVIRONMENTS, ROUTES } from '../../api/contract/index.ts';
import { send } from '../support/request.ts';
import { harness, type Harness } from './support/harness.ts';
import { envPath, formPost, jsonPost } from './support/requests.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

function expectNosniff(headers: Headers): void {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
}

describe.each(ENVIRONMENTS)('%s: nosniff on every answer', (env) => {
  it.each(ROUTES.flatMap((route) => [...route.methods, 'DELETE'].map((method) => [method, route.path] as const)))(
    'nosniff: %s %s (success, 4xx and 405 alike)',
    async (method, path) => {
      const res = await send(h.app, envPath(env, path), { method });
      expectNosniff(res.headers);
    },
  );

  it('nosniff: 404 for an unknown path, 303 of a form sign-up, 4xx of a bad body', async () => {
    expectNosniff((await send(h.app, envPath(env, '/api/v1/prices'))).headers);
    const seeOther = await send(h.app, envPath(env, API_PATHS.waitlist), formPost('email=ada%40example.com&consent=on'));
    expect(seeOther.status).toBe(303);
    expectNosniff(seeOther.headers);
    const bad = await send(h.app, envPath(env, API_PATHS.waitlist), jsonPost('{'));
    expect(bad.status).toBe(400);
    expectNosniff(bad.headers);
  });
});

it('nosniff: a 429 carries it too', async () => {
  const limited = await harness({ RATE_LIMIT_STANDARD: '1' });
  try {
    await send(limited.app, API_PATHS.waitlist, jsonPost('{'));
    const res = await send(limited.app, API_PATHS.waitlist, jsonPost('{'));
    expect(res.status).toBe(429);
    expectNosniff(res.headers);
  } finally {
    await limited.close();
  }
});
