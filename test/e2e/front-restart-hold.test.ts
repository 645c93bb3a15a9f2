/**
 * A sidecar restart costs no request it never saw: under a steady load of sign-ups the sidecar is
 * killed (SIGKILL); the supervisor starts a new one while the front holds every request that
 * found no sidecar, then forwards it. Only a request the dead sidecar had received may fail, so at
 * most one per client (each client has one request in flight); every request sent after the
 * death is answered as if nothing had happened. The front's metrics count the held requests.
 */
import http from 'node:http';
import { describe, expect, inject, test, vi } from 'vitest';
import { API_PATHS } from '../../api/contract/index.ts';
import { raw } from '../front/client.ts';
import { OWN_STACK_TIMEOUT_MS, freePort, startStack } from '../support/stack.ts';

const shared = inject('stack');
const CLIENTS = 8;

interface Answer {
  client: number;
  startedAt: number;
  status: number;
  body: string;
}

/** One sign-up over the client's kept-alive connection. */
function signUp(agent: http.Agent, base: URL, email: string): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ email, consent: true });
  return new Promise((resolve) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method: 'POST', path: API_PATHS.waitlist, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', () => resolve({ status: 0, body: text }));
      },
    );
    // A broken connection counts as a failed request, like a 500.
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(body);
  });
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('front: sidecar restart under load', { timeout: OWN_STACK_TIMEOUT_MS }, () => {
  test('restart hold: a sidecar killed under steady sign-ups loses no request it never received; held requests are counted', async () => {
    const metricsPort = await freePort();
    // A hold long enough for a sidecar start on a busy machine: the rule is tested, not the default.
    const stack = await startStack({ distDir: shared.distDir, baseUrl: shared.baseUrl, env: { METRICS_PORT: String(metricsPort), SIDECAR_HOLD_MS: '20000' } });
    const base = new URL(stack.url);
    const answers: Answer[] = [];
    let running = true;
    let sent = 0;
    let deadAt = Infinity;
    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (running) {
        const startedAt = performance.now();
        const { status, body } = await signUp(agent, base, `hold-${client}-${sent++}@example.org`);
        answers.push({ client, startedAt, status, body });
      }
      agent.destroy();
    });
    try {
      await vi.waitFor(() => expect(answers.length).toBeGreaterThanOrEqual(50), { timeout: 20_000, interval: 20 });
      const pid = (await stack.sidecarPid())!;
      process.kill(pid, 'SIGKILL');
      await vi.waitFor(() => expect(() => process.kill(pid, 0)).toThrow(), { timeout: 5_000, interval: 2 });
      deadAt = performance.now();
      // Load goes on until a new sidecar has answered sign-ups for a while.
      await vi.waitFor(async () => expect((await stack.sidecarPid()) ?? pid).not.toBe(pid), { timeout: 30_000, interval: 20 });
      await vi.waitFor(() => expect(answers.filter((a) => a.startedAt > deadAt && a.status === 200).length).toBeGreaterThanOrEqual(50), { timeout: 30_000, interval: 20 });
    } finally {
      running = false;
      await Promise.all(clients);
    }
    try {
      const failed = answers.filter((a) => a.status !== 200);
      // Only requests already in flight when the sidecar died fail: at most one per client.
      expect(failed.length).toBeLessThanOrEqual(CLIENTS);
      expect(new Set(failed.map((a) => a.client)).size).toBe(failed.length);
      expect(failed.filter((a) => a.startedAt > deadAt)).toEqual([]);
      // Every other request was answered as if nothing had happened.
      const sentAfter = answers.filter((a) => a.startedAt > deadAt);
      expect(sentAfter.length).toBeGreaterThanOrEqual(50);
      for (const answer of answers.filter((a) => a.status === 200)) expect(JSON.parse(answer.body)).toEqual({ accepted: true });

      const metrics = (await raw(`http://127.0.0.1:${metricsPort}`, '/metrics')).text;
      const held = sample(metrics, 'waitlist_sidecar_held_requests_total')!;
      expect(held).toBeGreaterThanOrEqual(1);
      expect(sample(metrics, 'waitlist_sidecar_dropped_requests_total')).toBe(0);
      expect(sample(metrics, 'waitlist_sidecar_restarts_total')).toBe(1);
    } finally {
      await stack.stop();
    }
  });
});
