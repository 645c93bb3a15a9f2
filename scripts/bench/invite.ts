/**
 * `npm run bench -- invite`: sign-ups without an invite run, beside `invite --rate 5` sending to a
 * local SMTP server, and without again; the two windows without are the noise (docs/performance.md).
 */
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { CONNECTIONS, measure, signUps, type Measured } from './load.ts';
import { benchDir, checkouts, during, numberOption, phase, stores, type Checkout } from './options.ts';
import { startPostgres } from './postgres.ts';
import { command, productEnv, startProduct } from './processes.ts';
import { seedStore } from './seed.ts';
import { count, ms, ratio, table } from './table.ts';

const RECORDS = numberOption('records', 100_000);
const DURATION = numberOption('duration', 10);
const RATE = 5;
/** Enough members for the run to outlast its window, with its start-up. */
const INVITES = RATE * (Math.ceil(DURATION) + 3);

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('end', () => ((received += 1), callback()));
    stream.resume();
  },
});
await new Promise<void>((done) => smtp.listen(0, '127.0.0.1', done));
const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}?starttls=off`;

const tmp = benchDir('invite');
const postgres = stores().includes('postgres') ? await during('starting PostgreSQL', startPostgres()) : undefined;
try {
  const rows: string[][] = [];
  for (const store of stores()) {
    const withRun: number[] = [];
    for (const checkout of checkouts()) {
      const [before, run, after, sent] = await windows(store, checkout);
      const spread = Math.abs(before.p99 - after.p99);
      const held = run.p99 <= Math.max(before.p99, after.p99) + spread ? 'yes' : 'NO';
      const without = (before.p99 + after.p99) / 2;
      withRun.push(run.p99);
      rows.push([store, checkout.label, ms(before.p99), ms(run.p99), ms(after.p99), ratio(before.p99, after.p99), ratio(run.p99, without), held, '', String(sent), String(before.failed + run.failed + after.failed)]);
    }
    // The after row: the p99 beside the run against the before row's.
    if (withRun.length === 2) rows.at(-2)![8] = ratio(withRun[0], withRun[1]);
  }
  const head = ['store', 'checkout', 'p99 without', 'p99 with run', 'p99 without', 'noise', 'with / without', 'held', 'with run after / before', 'sent', 'errors'];
  table(`Sign-ups beside invite --rate ${RATE} at ${count(RECORDS)} records: ${CONNECTIONS} clients, windows of ${DURATION} s; p99 in ms`, head, rows);
} finally {
  await postgres?.stop();
  smtp.close();
}

/** The sign-ups' three windows, and how many messages the run sent. */
async function windows(store: 'json' | 'postgres', checkout: Checkout): Promise<[Measured, Measured, Measured, number]> {
  const name = `${store}_${checkout.label}`;
  const settings = await seedStore(store, checkout, postgres, path.join(tmp, name), RECORDS);
  const product = await during(`${checkout.label}: starting the product on ${store}`, startProduct(checkout, settings.DATA_DIR, settings));
  try {
    let window = 0;
    const load = (what: string) => during(`${checkout.label}, ${store}: sign-ups ${what}, ${DURATION} s`, measure({ url: product.url }, signUps(`${name}-${window++}`), DURATION));
    const before = await load('without a run');
    const sentBefore = received;
    // The seeded members' domain takes no mail, so the run would leave them all out: a resolver
    // that refuses at once makes every verdict `unknown`, which is invited (a checkout without the
    // check ignores the setting).
    const env = productEnv({ ...settings, SMTP_URL: smtpUrl, INVITE_URL: 'https://app.example/start', DNS_SERVERS: '127.0.0.1:1' });
    let exited = false;
    const invite = command(checkout, 'scripts/waitlist.ts', ['invite', '--count', String(INVITES), '--rate', String(RATE), '--yes'], env).finally(() => (exited = true));
    // The window starts once the run is past its start-up and sending.
    await during(`${checkout.label}: invite --count ${INVITES} --rate ${RATE}, until its first message`, async () => {
      while (received === sentBefore && !exited) await new Promise((done) => setTimeout(done, 50));
    });
    const run = exited ? undefined : await load('beside the run');
    const ended = await during(`${checkout.label}: the run's last messages`, invite);
    if (ended.code !== 0 || !run) throw new Error(`invite exited with ${ended.code} before its window ended:\n${ended.stderr}`);
    const after = await load('without a run, again');
    phase(`  p99 ${ms(before.p99)}, ${ms(run.p99)} beside the run, ${ms(after.p99)} ms`);
    return [before, run, after, received - sentBefore];
  } finally {
    await product.stop();
  }
}
