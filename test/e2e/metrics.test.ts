/**
 * Metrics: Prometheus text on a separate listener, off unless METRICS_PORT is set,
 * bound to loopback, never reachable through the public port. The front counts what it sees;
 * the sidecar's store numbers arrive over the supervisor's IPC channel when scraped.
 */
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, test, vi } from 'vitest';
import { inject } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { raw } from '../front/client.ts';
import { OWN_STACK_TIMEOUT_MS, freePort, startStack } from '../support/stack.ts';

const shared = inject('stack');

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const connects = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

// Each case starts a stack of its own: they run side by side, as a start mostly waits on I/O.
describe.concurrent('metrics', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  test('metrics: requests by operation, environment and status, latency, sign-ups, refusals, store commits, restarts; loopback only, not on the public port', async () => {
    const metricsPort = await freePort();
    const stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { METRICS_PORT: String(metricsPort), RATE_LIMIT_STANDARD: '3' } });
    const scrape = async () => {
      const res = await raw(`http://127.0.0.1:${metricsPort}`, '/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.text;
    };
    try {
      expect((await raw(stack.url, '/')).status).toBe(200);
      expect((await raw(stack.url, API_PATHS.status)).status).toBe(200);
      expect((await raw(stack.url, `/sandbox${API_PATHS.status}`)).status).toBe(200);
      const signup = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'metrics@example.org', consent: true }) };
      expect((await raw(stack.url, API_PATHS.waitlist, signup)).status).toBe(200);
      // Standard policy: 3 per window; the sign-up used one.
      const index = [];
      for (let i = 0; i < 3; i++) index.push((await raw(stack.url, API_PATHS.index)).status);
      expect(index).toEqual([200, 200, 429]);

      const text = await scrape();
      expect(sample(text, 'waitlist_http_requests_total{operation="site",environment="none",status="200"}')).toBe(1);
      expect(sample(text, 'waitlist_http_requests_total{operation="getStatus",environment="production",status="200"}')).toBe(1);
      expect(sample(text, 'waitlist_http_requests_total{operation="getStatus",environment="sandbox",status="200"}')).toBe(1);
      expect(sample(text, 'waitlist_http_requests_total{operation="getApiIndex",environment="production",status="429"}')).toBe(1);
      expect(sample(text, 'waitlist_http_request_duration_seconds_count{operation="joinWaitlist",environment="production"}')).toBe(1);
      expect(sample(text, 'waitlist_signups_accepted_total{environment="production"}')).toBe(1);
      expect(sample(text, 'waitlist_rate_limit_refusals_total{operation="getApiIndex",environment="production"}')).toBe(1);
      expect(sample(text, 'waitlist_sidecar_up')).toBe(1);
      // From the sidecar, over IPC.
      expect(sample(text, 'waitlist_store_commit_seconds_count')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'waitlist_store_commit_bytes')).toBeGreaterThan(0);
      expect(sample(text, 'sidecar_process_resident_memory_bytes')).toBeGreaterThan(0);
      // No address, in any label or value.
      expect(text).not.toContain('example.org');

      // The public port does not serve the metrics.
      const publicMetrics = await raw(stack.url, '/metrics');
      expect(publicMetrics.status).toBe(404);
      expect(publicMetrics.text).not.toContain('waitlist_http_requests_total');
      // Bound to loopback: another address of this machine does not reach it.
      const other = Object.values(networkInterfaces()).flat().find((a) => a && !a.internal && a.family === 'IPv4');
      if (other) expect(await connects(other.address, metricsPort)).toBe(false);

      // A sidecar restart is counted.
      const pid = (await stack.sidecarPid())!;
      process.kill(pid, 'SIGKILL');
      await vi.waitFor(async () => expect((await raw(stack.url, API_PATHS.status)).status).toBe(200), { timeout: 30_000, interval: 50 });
      expect(sample(await scrape(), 'waitlist_sidecar_restarts_total')).toBe(1);
    } finally {
      await stack.stop();
    }
    // Stopped with the rest.
    expect(await connects('127.0.0.1', metricsPort)).toBe(false);
  });

  test('metrics: off by default (no METRICS_PORT, no metrics listener)', async () => {
    const stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl });
    await stack.stop();
    expect(stack.output()).not.toMatch(/metrics on /);
  });
});
