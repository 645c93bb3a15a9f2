/**
 * `npm run bench [-- NAME … --duration=N --rounds=N --sizes=a,b …]`: runs every benchmark below
 * (or only those named, e.g. `signup-peers`), one after the other, each with the same arguments, and says which one starts and how long each took.
 * One failing benchmark does not stop the others; the exit code is 1 if any failed.
 *
 * To add a benchmark, append its file (in this folder) to BENCHES. It receives all arguments and
 * ignores those it does not use (scripts/bench/progress.ts has the shared parser), and prints a line
 * when each phase starts (progress.ts: phase, during).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

export const BENCHES: readonly string[] = [
  'front.ts', // static files: front vs nginx vs naive; the status probe through proxies
  'sidecar.ts', // sign-ups on the JSON store at 1,000 and 100,000 records
  'postgres.ts', // sign-ups and statistics on PostgreSQL at 1,000,000 records beside the JSON store at 100,000
  'report.ts', // the report command's time and peak memory on PostgreSQL and the JSON store
  'rate-limit-memory.ts', // in-memory windows flat over two floods; Redis engine decisions/s and p99
  'signup-peers.ts', // a sign-up through the product against a plain node:http peer, the h3 floor and pgbench
  'invite.ts', // 10,000 invitations at --rate 0 and a paced run on both stores, beside a sign-up load
  'invite-claim.ts', // one invite claim on the JSON store at the head of 1,000,000 records and deep into them
];

/** The benchmarks named on the command line (`npm run bench -- signup-peers`), or all of them. */
export function selected(args: readonly string[]): { files: string[]; rest: string[] } {
  const known = new Map(BENCHES.map((file) => [file.replace(/\.ts$/, ''), file]));
  const names = args.filter((arg) => known.has(arg.replace(/\.ts$/, '')));
  const files = names.length ? names.map((name) => known.get(name.replace(/\.ts$/, ''))!) : [...BENCHES];
  return { files, rest: args.filter((arg) => !names.includes(arg)) };
}

function run(file: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, [file, ...args], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
}

/** Runs each file with `args`; resolves with the exit code of the whole run. */
export async function runAll(files: readonly string[], args: string[], log = (line: string) => console.error(line)): Promise<number> {
  const failed: string[] = [];
  const started = performance.now();
  // Ctrl-C reaches every process of the group: let the running benchmark stop its servers, then stop.
  let interrupted = false;
  const onInterrupt = () => (interrupted = true);
  process.on('SIGINT', onInterrupt);
  for (const [index, file] of files.entries()) {
    if (interrupted) break;
    const since = performance.now();
    const name = path.relative(process.cwd(), file);
    log(`\n[bench ${index + 1}/${files.length}] ${name} ${args.join(' ')}`.trimEnd());
    const code = await run(file, args);
    const seconds = ((performance.now() - since) / 1000).toFixed(0);
    log(`[bench ${index + 1}/${files.length}] ${name}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${seconds} s`);
    if (code !== 0) failed.push(name);
  }
  process.off('SIGINT', onInterrupt);
  const total = ((performance.now() - started) / 1000).toFixed(0);
  log(`\n[bench] ${files.length - failed.length} of ${files.length} benchmarks finished in ${total} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
  return interrupted ? 130 : failed.length ? 1 : 0;
}

const USAGE = `usage: npm run bench [-- NAME … --duration=N --rounds=N --sizes=a,b --signup-records=N …]
Runs ${BENCHES.join(', ')} (scripts/bench/), or only those NAMEd (e.g. signup-peers), each with the
same options, and prints a line per phase.
Each prints its results as a table with ratios against a reference measured in the same run.`;

if (import.meta.main) {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  const { files, rest } = selected(process.argv.slice(2));
  process.exit(await runAll(files.map((file) => path.join(import.meta.dirname, file)), rest));
}
