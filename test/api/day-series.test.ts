/**
 * The store's first sign-ups per UTC day (signupsPerDay), the same on both engines: equal to the
 * reference definition (domain/day-series.ts daySeriesOf) over the stored records, and to numbers
 * counted by hand at the edges that matter: UTC midnight to the millisecond, the range's own ends,
 * a repeat (first day kept, latest answers counted) and an erasure. The JSON engine's running
 * sidecar answers it over the operator channel.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daySeriesOf } from '../../api/sidecar/domain/day-series.ts';
import { SidecarChannel } from '../../api/sidecar/operator/client.ts';
import { operatorSocketPath } from '../../api/sidecar/operator/protocol.ts';
import { serveOperator } from '../../api/sidecar/operator/server.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { describeEachBackend } from './support/backends.ts';
import { harness, type Harness } from './support/harness.ts';

const signups: [string, Record<string, string>, string][] = [
  ['old@example.com', { role: 'data' }, '2026-10-01T10:00:00.000Z'],
  ['edge-before@example.com', { lang: 'de', source: 'cta' }, '2026-11-19T23:59:59.999Z'],
  ['edge-after@example.com', { building: 'rag' }, '2026-11-20T00:00:00.000Z'],
  ['repeat@example.com', { role: 'developer' }, '2026-11-20T08:00:00.000Z'],
  ['erased@example.com', { role: 'other' }, '2026-11-20T09:00:00.000Z'],
  ['repeat@example.com', { role: 'founder', source: 'hero' }, '2026-11-21T08:00:00.000Z'],
  ['late@example.com', {}, '2026-11-21T23:00:00.000Z'],
  ['until@example.com', {}, '2026-11-22T00:00:00.000Z'],
];
const RANGE = { since: '2026-11-19T00:00:00.000Z', until: '2026-11-22T00:00:00.000Z' };

describeEachBackend('signupsPerDay', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({}, backend);
    for (const [email, answers, at] of signups) await h.store.upsert({ email, consent: true, ...answers }, 'json', at);
    await h.store.erase('erased@example.com');
  });
  afterAll(() => h?.close());

  it('signupsPerDay: per UTC day by every answer, unanswered counted, the day ending at midnight to the ms; before the range in one count', async () => {
    const series = await h.store.signupsPerDay(RANGE);
    expect(series.days.map((d) => [d.day, d.counts.total])).toEqual([['2026-11-19', 1], ['2026-11-20', 2], ['2026-11-21', 1]]);
    const [d19, d20, d21] = series.days.map((d) => d.counts);
    expect(d19).toMatchObject({ byLang: { en: 0, de: 1 }, bySource: { hero: 0, cta: 1, unanswered: 0 }, byRole: { unanswered: 1 } });
    // The repeat stays on its first day with its latest answers; the erased record is gone.
    expect(d20.byRole).toEqual({ developer: 0, platform: 0, data: 0, founder: 1, other: 0, unanswered: 1 });
    expect(d20.byBuilding).toEqual({ agents: 0, rag: 1, research: 0, extraction: 0, evaluating: 0, unanswered: 1 });
    expect(d20.bySource).toEqual({ hero: 1, cta: 0, unanswered: 1 });
    expect(d21).toMatchObject({ total: 1, byLang: { en: 1, de: 0 } });
    expect(series.before).toBe(1);
  });

  it('signupsPerDay: equals the reference definition over every stored record, for ranges cut anywhere', async () => {
    const records: WaitlistRecord[] = [];
    for await (const record of h.store.export()) records.push(record);
    const ranges = [
      RANGE,
      { since: '2026-11-20T00:00:00.000Z', until: '2026-11-20T00:00:00.001Z' },
      { since: '2026-11-20T00:00:00.001Z', until: '2026-11-21T23:00:00.000Z' },
      { since: '2026-01-01T00:00:00.000Z', until: '2027-01-01T00:00:00.000Z' },
      { since: '2026-11-30T00:00:00.000Z', until: '2026-11-30T00:00:00.000Z' },
    ];
    for (const range of ranges) expect(await h.store.signupsPerDay(range), JSON.stringify(range)).toEqual(daySeriesOf(records, range));
  });
});

describe('signupsPerDay over the operator channel', () => {
  it('operator channel: signupsPerDay answers the sidecar store\'s own series; a range that is not two times in order -> 400', async () => {
    const h = await harness();
    const socketDir = await mkdtemp(join(tmpdir(), 'series-channel-'));
    const server = await serveOperator(h.store, socketDir);
    try {
      for (const [email, answers, at] of signups) await h.store.upsert({ email, consent: true, ...answers }, 'form', at);
      const channel = new SidecarChannel(operatorSocketPath(socketDir));
      expect(await channel.signupsPerDay(RANGE)).toEqual(await h.store.signupsPerDay(RANGE));
      expect((await channel.signupsPerDay(RANGE)).days).toHaveLength(3);
      await expect(channel.signupsPerDay({ since: RANGE.until, until: RANGE.since })).rejects.toThrow(/answered 400/);
      await expect(channel.signupsPerDay({ since: 'yesterday', until: RANGE.until })).rejects.toThrow(/answered 400/);
    } finally {
      await server?.close();
      await rm(socketDir, { recursive: true, force: true });
      await h.close();
    }
  });
});
