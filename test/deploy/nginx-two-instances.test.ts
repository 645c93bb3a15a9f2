/**
 * docs/deploy/nginx/upstream-two.conf: one nginx, two instances of the product (each its own
 * front + sidecar; here each with its own JSON store, in production both on the same PostgreSQL
 * and Redis). nginx spreads requests over both and keeps serving while one is stopped.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { API_PATHS } from '../../api/contract/paths.ts';
import { need } from '../support/services.ts';
import { OWN_STACK_TIMEOUT_MS, ROOT, freePort, stackEnv, startStacks, type RunningStack } from '../support/stack.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { NGINX_AND_OPENSSL, call, startNginx, type RunningNginx } from './nginx.ts';


/** What the operator's `npm run waitlist -- count` says about an instance's data directory. */
async function count(dataDir: string): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/waitlist.ts'), 'count'], { cwd: ROOT, env: stackEnv({ DATA_DIR: dataDir }) });
  return Number(stdout.trim());
}

const signUp = (url: string, i: number) => call(`${url}${API_PATHS.waitlist}`, { method: 'POST', body: JSON.stringify({ email: `user${i}@example.com`, consent: true }) });

describeWithEngine('nginx and openssl', NGINX_AND_OPENSSL, 'nginx in front of two instances (docs/deploy/nginx/upstream-two.conf)', () => {
  let nginx: RunningNginx;
  let instances: RunningStack[] = [];

  beforeAll(async () => {
    // Both serve the run's one build of the site: what is checked here is the spreading and the
    // failover, which no absolute URL in the pages takes part in.
    const site = await need<{ distDir: string; baseUrl: string }>('site');
    const ports = [await freePort(), await freePort()];
    nginx = await startNginx('upstream-two.conf', ports.map((port) => `127.0.0.1:${port}`));
    instances = await startStacks(ports.map((port) => ({ port, ...site, env: { TRUST_PROXY: '127.0.0.1' }, timeoutMs: OWN_STACK_TIMEOUT_MS })));
  }, OWN_STACK_TIMEOUT_MS * 3);

  afterAll(async () => {
    for (const instance of instances) await instance.stop();
    await nginx?.stop();
  });

  test('sign-ups through nginx are spread over both instances, and every one is stored once', async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await signUp(nginx.url, i));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const counts = await Promise.all(instances.map((instance) => count(instance.dataDir)));
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBeGreaterThan(0);
    expect(counts[0] + counts[1]).toBe(10);
  });

  test('one instance stopped (a restart, a crash): pages and sign-ups still answer through the other', async () => {
    const [gone, left] = instances;
    const before = await count(left.dataDir);
    await gone.stop();
    for (let i = 0; i < 6; i++) expect((await call(`${nginx.url}/`)).status).toBe(200);
    for (let i = 100; i < 106; i++) expect((await signUp(nginx.url, i)).status).toBe(200);
    expect(await count(left.dataDir)).toBe(before + 6);
  }, OWN_STACK_TIMEOUT_MS);
});
