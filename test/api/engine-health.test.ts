import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeCause, EngineHealth, EngineUnavailableError } from '../../api/sidecar/health/engine-health.ts';
import { reportFailure } from '../../api/sidecar/http/api-layer.ts';
import { readinessOf, type EngineState } from '../../api/metrics/readiness.ts';

function capture() {
  const lines: string[] = [];
  return { lines, info: (line: string) => lines.push(`info ${line}`), error: (line: string) => lines.push(`error ${line}`) };
}

describe('engine health: one outage, one story in the log', () => {
  afterEach(() => void vi.useRealTimers());

  it('engine health: first failure one error line with the cause, a summary per interval, one line on return with duration and count', () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
    const logger = capture();
    const health = new EngineHealth({ engine: 'postgres', logger, meanwhile: 'requests answer 500' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), { code: 'ECONNREFUSED' });
    for (let i = 0; i < 1000; i++) {
      health.failed(refused);
      health.requestAffected();
    }
    expect(health.state()).toEqual({ engine: 'postgres', state: 'down', since: '2026-01-01T00:00:00.000Z', lastError: 'ECONNREFUSED' });
    vi.advanceTimersByTime(25_000);
    health.succeeded();
    expect(logger.lines).toEqual([
      'error postgres: unavailable (ECONNREFUSED); requests answer 500',
      'error postgres: still unavailable after 10 s; 1000 requests failed so far (last error: ECONNREFUSED)',
      'error postgres: still unavailable after 20 s; 1000 requests failed so far (last error: ECONNREFUSED)',
      'info postgres: available again after 25.0 s; 1000 requests failed during the outage',
    ]);
    expect(health.state()).toMatchObject({ state: 'up', since: '2026-01-01T00:00:25.000Z' });
    vi.advanceTimersByTime(60_000);
    expect(logger.lines).toHaveLength(4);
    health.close();
  });

  it('engine health: a success that began before the latest failure does not end the outage', () => {
    const logger = capture();
    let now = 1000;
    const health = new EngineHealth({ engine: 'json', logger, meanwhile: 'x', now: () => now });
    const startedAt = health.now();
    now = 1001;
    health.failed(Object.assign(new Error("ENOSPC: no space left on device, write '/srv/data/.waitlist.json.tmp'"), { code: 'ENOSPC' }));
    health.succeeded(startedAt);
    expect(health.up).toBe(false);
    health.succeeded(health.now());
    expect(health.up).toBe(true);
    expect(logger.lines[0]).toBe('error json: unavailable (ENOSPC (no space left on device, write)); x');
    health.close();
  });

  it('engine health: the cause names no address, path or e-mail address', () => {
    expect(describeCause(new Error('connect ETIMEDOUT db.example.net:5432'))).toBe('connect ETIMEDOUT');
    expect(describeCause(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(
      'terminating connection due to administrator command (SQLSTATE 57P01)',
    );
    expect(describeCause(new Error('password authentication failed for user "ann@example.com" at [::1]:5432'))).not.toMatch(/example\.com|::1|5432/);
  });

  it('engine health: a request that meets an engine away answers 500 internal_error and logs no line of its own; a real bug logs one line with an error id', () => {
    const logger = capture();
    const health = new EngineHealth({ engine: 'postgres', logger, meanwhile: 'm' });
    health.failed(new Error('Connection terminated unexpectedly'));
    const request = new Request('http://sidecar/api/v1/waitlist', { method: 'POST' });
    const away = reportFailure(logger, request, 'POST', '/api/v1/waitlist', new EngineUnavailableError(health, new Error('Connection terminated unexpectedly')));
    expect([away.status, away.code]).toEqual([500, 'internal_error']);
    expect(logger.lines).toHaveLength(1);
    const bug = reportFailure(logger, request, 'POST', '/api/v1/waitlist', new TypeError('x is undefined'));
    expect([bug.status, bug.code]).toEqual([500, 'internal_error']);
    expect(logger.lines[1]).toMatch(/^error error id [0-9a-f]{12}: internal error on POST \/api\/v1\/waitlist: TypeError: x is undefined/);
    health.succeeded();
    expect(logger.lines[2]).toMatch(/^info postgres: available again after [\d.]+ s; 1 requests failed during the outage$/);
    health.close();
  });
});

describe('readiness: this instance can serve', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const engine = (name: EngineState['engine'], state: EngineState['state']): EngineState => ({ engine: name, state, since: at, lastError: null });

  it('readiness: Redis away -> still ready (limits count per instance), redis named degraded', () => {
    expect(readinessOf([engine('postgres', 'up'), engine('redis', 'down')])).toMatchObject({ ready: true, degraded: ['redis'] });
  });

  it('readiness: PostgreSQL or the JSON store\'s disk away -> not ready (requests fail)', () => {
    expect(readinessOf([engine('postgres', 'down'), engine('redis', 'up')])).toMatchObject({ ready: false, degraded: [] });
    expect(readinessOf([engine('json', 'down')])).toMatchObject({ ready: false, degraded: [] });
    expect(readinessOf([engine('json', 'up')])).toMatchObject({ ready: true, degraded: [] });
  });
});
