/**
 * `npm run bench -- clean`: what cleaning the list before an invite run costs the operator
 * (docs/performance.md, "The clean list"); `waitlist count` on the same data is the cost of starting
 * a command and reaching the store. A `--before` checkout without these commands is measured for
 * `count` only, and says so.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startDnsmasq } from '../dnsmasq.ts';
import { benchDir, checkouts, during, numberOption, phase, stores, type Checkout } from './options.ts';
import { startPostgres } from './postgres.ts';
import { command, productEnv, startProduct, type CommandRun } from './processes.ts';
import { seedDomain, seedStore } from './seed.ts';
import { count, table } from './table.ts';

const RECORDS = numberOption('records', 100_000);
const DOMAINS = Math.min(5_000, RECORDS);
const ERASED = Math.min(10_000, RECORDS);

const zone = ['local=/test/'];
for (let d = 0; d < DOMAINS; d++) {
  if (d % 3 === 0) zone.push(`mx-host=d${d}.test,mail.d${d}.test,10`);
  if (d % 3 === 1) zone.push(`host-record=d${d}.test,127.0.0.1`);
}
const dns = await during(`dnsmasq with ${count(DOMAINS)} domains`, startDnsmasq(zone));
const tmp = benchDir('clean');
const eraseFile = path.join(tmp, 'erase.txt');
await writeFile(eraseFile, Array.from({ length: ERASED }, (_, i) => `seed${i}@${seedDomain(i, DOMAINS)}\n`).join(''));
const postgres = stores().includes('postgres') ? await during('starting PostgreSQL', startPostgres()) : undefined;
try {
  const rows: string[][] = [];
  for (const store of stores()) {
    for (const checkout of checkouts()) rows.push([store, checkout.label, ...(await measure(store, checkout))]);
  }
  const head = ['store', 'checkout', 'count s', 'check s', 'lookups/s', 'check MB', 'erase s', 'erased/s', 'erase MB'];
  table(`The clean list at ${count(RECORDS)} members, ${count(DOMAINS)} domains, erasing ${count(ERASED)}; the service running`, head, rows);
} finally {
  await postgres?.stop();
  await dns.stop();
}

/** The row of one store and checkout: count, check and erase, each its wall time and peak memory. */
async function measure(store: 'json' | 'postgres', checkout: Checkout): Promise<string[]> {
  const settings = await seedStore(store, checkout, postgres, path.join(tmp, `${store}_${checkout.label}`), RECORDS, DOMAINS);
  const product = await during(`${checkout.label}: starting the product on ${store}`, startProduct(checkout, settings.DATA_DIR, settings));
  const env = productEnv({ ...settings, DNS_SERVERS: dns.address });
  const run = (args: string[]) => during(`${checkout.label}: waitlist ${args.join(' ')} on ${store}`, command(checkout, 'scripts/waitlist.ts', args, env));
  try {
    const reference = await run(['count']);
    if (reference.code !== 0) throw new Error(`waitlist count exited with ${reference.code}:\n${reference.stderr}`);
    const seconds = (r: CommandRun) => r.seconds.toFixed(2);
    const rate = (n: number, r: CommandRun) => count(n / r.seconds);
    const check = await run(['check', '--json']);
    const checked = !absent(check, checkout);
    if (checked) {
      const counts = JSON.parse(check.stdout).counts as Record<string, number>;
      phase(`  verdicts: ${Object.entries(counts).map(([verdict, n]) => `${count(n)} ${verdict}`).join(', ')}`);
    }
    const erase = await run(['erase', '--from', eraseFile, '--yes']);
    const erased = !absent(erase, checkout);
    return [
      seconds(reference),
      ...(checked ? [seconds(check), rate(DOMAINS, check), check.peakMb.toFixed(0)] : ['absent', '', '']),
      ...(erased ? [seconds(erase), rate(ERASED, erase), erase.peakMb.toFixed(0)] : ['absent', '', '']),
    ];
  } finally {
    await product.stop();
  }
}

/** True when an older checkout lacks the command (the usage error, exit 2); any other failure is an error. */
function absent(run: CommandRun, checkout: Checkout): boolean {
  if (run.code === 0) return false;
  if (checkout.label === 'after' || run.code !== 2) throw new Error(`waitlist exited with ${run.code} (${checkout.label}):\n${run.stderr}`);
  phase(`  ${checkout.label}: a command this checkout does not have (exit 2): skipped`);
  return true;
}
