/**
 * `npm run bench [-- NAME … OPTIONS]`: each bench named (or all), one after the other, each a
 * process of its own with the same options; exit 1 if any failed (docs/performance.md).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const BENCHES = {
  static: 'the site: the front against nginx serving the same dist/',
  proxy: "an API request through the front against the sidecar's socket",
  signups: 'sign-ups at 32 clients on the JSON store at 100,000 records and on PostgreSQL at 1,000,000',
  stats: 'the statistics on PostgreSQL at 1,000,000 records, exact on every instance, against the h3 floor',
  report: 'the report command on both stores, against `waitlist count`',
  invite: "invite --rate 5 beside 32 clients' sign-ups, against the same load without it",
  clean: 'check over 100,000 members at 5,000 domains (local DNS) and erase --from of 10,000, against `waitlist count`',
} as const;

const USAGE = `usage: npm run bench -- [NAME …] [--before DIR] [--duration S] [--rounds N] [--records N] [--store json|postgres]
${Object.entries(BENCHES).map(([name, what]) => `  ${name.padEnd(8)} ${what}`).join('\n')}
Each prints a table with ratios against its reference measured in the same run (docs/performance.md).`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
// A word that is neither an option nor the value of one names a bench.
const words = args.filter((arg, i) => !arg.startsWith('-') && !(args[i - 1]?.startsWith('--') && !args[i - 1].includes('=')));
const unknown = words.filter((word) => !Object.hasOwn(BENCHES, word));
if (unknown.length > 0) {
  console.error(`no bench called ${unknown.join(', ')}\n${USAGE}`);
  process.exit(2);
}
const names = words.length > 0 ? words : Object.keys(BENCHES);
const options = args.filter((arg) => !names.includes(arg));

const failed: string[] = [];
const started = performance.now();
for (const [i, name] of names.entries()) {
  const since = performance.now();
  console.error(`\n[bench ${i + 1}/${names.length}] ${name} ${options.join(' ')}`.trimEnd());
  const child = spawn(process.execPath, [path.join(import.meta.dirname, `${name}.ts`), ...options], { stdio: 'inherit' });
  const code = await new Promise<number>((done) => child.on('exit', (exitCode, signal) => done(exitCode ?? (signal ? 128 : 1))));
  const seconds = ((performance.now() - since) / 1000).toFixed(0);
  console.error(`[bench ${i + 1}/${names.length}] ${name}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${seconds} s`);
  if (code !== 0) failed.push(name);
}
const total = ((performance.now() - started) / 1000).toFixed(0);
console.error(`\n[bench] ${names.length - failed.length} of ${names.length} benches finished in ${total} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
