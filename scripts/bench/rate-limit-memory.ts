/**
 * Rate limits, in memory and shared in Redis:
 * 1. memory: two identical floods of distinct client addresses, one after the other, through the
 *    in-memory windows with the default caps; the process's RSS after the second flood must stay
 *    within 10 % of the RSS after the first (the tables are bounded per policy). Exit 1 otherwise.
 *    RSS is taken after a last-resort GC, the collection V8 makes under memory pressure: right
 *    after a flood V8 keeps freed heap pages pooled, and a plain RSS reading counts them (printed
 *    too; measured: it grows once, at the second flood, then stays flat at further floods).
 * 2. redis: decisions/s and p99 of the Redis engine through the same interface, 32 concurrent
 *    callers, against a throwaway redis-server/valkey-server (skipped when neither is installed).
 * Options: --flood=N addresses per policy and flood (default 250000), --duration=S (default 5).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../../api/config.ts';
import { memoryRateLimitStore, type RateLimitStore } from '../../api/sidecar/http/rate-limit/index.ts';
import { RedisRateLimitStore } from '../../api/sidecar/http/rate-limit/redis.ts';
import { silentLogger } from '../../api/sidecar/http/log.ts';
import { REDIS_BINARY, startRedis } from '../../test/support/engines/redis.ts';
import { during, numberOption, phase } from './progress.ts';
import { table } from './table.ts';

const FLOOD = numberOption('flood', 250_000);
const SECONDS = numberOption('duration', 5);
const CONCURRENCY = 32;
const POLICIES = ['standard', 'relaxed'] as const;
const config = loadConfig({});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'major'; execution: 'sync'; flavor?: 'last-resort' }) => void;
/** [RSS after an ordinary full GC, RSS after a last-resort GC] in MB. */
const rssMb = (): [number, number] => {
  gc();
  const plain = process.memoryUsage().rss / 2 ** 20;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return [plain, process.memoryUsage().rss / 2 ** 20];
};

/** Flood `n` (1-based) uses addresses no earlier flood used: half IPv4, half IPv6 /64 buckets. */
function address(flood: number, i: number): string {
  const n = flood * 10_000_000 + i;
  return i % 2 ? `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}` : `2001:db8:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}:0:0:0:0/64`;
}

async function flood(store: RateLimitStore, n: number, clock: { ms: number }): Promise<void> {
  for (let i = 0; i < FLOOD; i++) {
    clock.ms += 0.01; // 250,000 addresses in 2.5 s: all within one window, so the caps are what bound the tables
    for (const policy of POLICIES) await store.hit(policy, address(n, i), config.RATE_LIMIT_STANDARD, clock.ms);
  }
}

async function memory(): Promise<boolean> {
  const store = memoryRateLimitStore(config);
  const clock = { ms: Date.now() };
  const before = rssMb();
  await during(`memory: flood 1, ${FLOOD.toLocaleString('en')} addresses per policy`, flood(store, 1, clock));
  const first = rssMb();
  await during(`memory: flood 2, ${FLOOD.toLocaleString('en')} other addresses per policy`, flood(store, 2, clock));
  const second = rssMb();
  const ratio = second[1] / first[1];
  console.log(`\nIn-memory windows: two floods of ${FLOOD.toLocaleString('en')} distinct addresses per policy (cap ${config.RATE_LIMIT_MAX_CLIENTS.toLocaleString('en')} per policy)`);
  table(
    ['moment', 'tracked (standard + relaxed)', 'RSS MB (full GC)', 'RSS MB (last-resort GC)'],
    [
      ['before', '0', ...before.map((mb) => mb.toFixed(1))],
      ['after flood 1', String(store.size('standard') + store.size('relaxed')), ...first.map((mb) => mb.toFixed(1))],
      ['after flood 2', String(store.size('standard') + store.size('relaxed')), ...second.map((mb) => mb.toFixed(1))],
    ],
  );
  const flat = Math.abs(ratio - 1) <= 0.1;
  console.log(`RSS (last-resort GC) after flood 2 / after flood 1 = ${ratio.toFixed(3)} (${flat ? 'within' : 'NOT within'} 10 %)`);
  return flat;
}

async function redis(): Promise<void> {
  if (!REDIS_BINARY) {
    console.log('\nRedis engine: skipped (neither valkey-server nor redis-server is installed)');
    return;
  }
  const engine = await startRedis();
  const store = await RedisRateLimitStore.open({ url: engine.url, windowSeconds: 60, maxKeys: 100_000, logger: silentLogger });
  try {
    const samples: number[] = [];
    let i = 0;
    const run = async (ms: number, keep: boolean) => {
      const end = performance.now() + ms;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() < end) {
            const started = performance.now();
            await store.hit('standard', address(3, i++ % 1_000_000), 30, Date.now());
            if (keep) samples.push(performance.now() - started);
          }
        }),
      );
    };
    await during('redis: warm-up 1 s', run(1000, false));
    await during(`redis: ${CONCURRENCY} concurrent callers for ${SECONDS} s`, run(SECONDS * 1000, true));
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
    console.log(`\nRedis engine (${REDIS_BINARY.split('/').pop()}), one Lua script per decision, ${CONCURRENCY} concurrent callers`);
    table(['engine', 'callers', 'decisions/s', 'p50 ms', 'p99 ms'], [['redis', String(CONCURRENCY), (samples.length / SECONDS).toFixed(0), at(0.5).toFixed(3), at(0.99).toFixed(3)]]);
  } finally {
    await store.close();
    await engine.stop();
  }
}

phase('rate limits: memory flatness, then the Redis engine');
const flat = await memory();
await redis();
process.exit(flat ? 0 : 1);
