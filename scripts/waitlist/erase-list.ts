/**
 * `npm run waitlist -- erase --from FILE|-` (docs/operator.md, "Before you open access"): every
 * address of a list erased as `erase EMAIL` does, while the service runs, ERASE_CHUNK at a time.
 */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { normaliseEmail } from '../../api/sidecar/domain/email.ts';
import { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { askToGoOn, EXIT } from '../cli.ts';
import { progressBar } from './progress.ts';
import { withStore } from './store.ts';

/** Addresses erased in one durable write (one request of the operator channel). */
const ERASE_CHUNK = 1000;

export async function eraseList(source: string, yes: boolean): Promise<number> {
  const list = source === '-' ? await text(process.stdin) : await readFile(source, 'utf8');
  // Each address once, by its first line.
  const addresses = new Map<string, { line: number; typed: string }>();
  // The lines it could not erase: each one's number and why, with what the operator gave.
  const problems: [line: number, message: string][] = [];
  list.split(/\r?\n/).forEach((raw, i) => {
    const typed = raw.trim();
    if (typed === '' || typed.startsWith('#')) return;
    const email = normaliseEmail(typed);
    if (!WaitlistRecord.shape.email.safeParse(email).success) problems.push([i + 1, `${JSON.stringify(typed)}: not an e-mail address`]);
    else if (!addresses.has(email)) addresses.set(email, { line: i + 1, typed });
  });
  if (!yes && addresses.size > 0) {
    const question = `Erase the records of ${addresses.size} address(es)? This cannot be undone.`;
    const stop = await askToGoOn(question, `${addresses.size} record(s) would be erased`, { message: 'Nothing was erased.', code: EXIT.error });
    if (stop !== undefined) return stop;
  }
  let erased = 0;
  const where = await withStore('write', async ({ store, where }) => {
    const bar = progressBar(addresses.size, ' erased {bar} {value}/{total} | {eta_formatted} left');
    const entries = [...addresses];
    for (let start = 0; start < entries.length; start += ERASE_CHUNK) {
      const chunk = entries.slice(start, start + ERASE_CHUNK);
      const done = await store.eraseMany(chunk.map(([email]) => email));
      chunk.forEach(([, { line, typed }], i) => {
        if (done[i]) erased += 1;
        else problems.push([line, `${JSON.stringify(typed)}: no record of that address`]);
      });
      bar?.increment(chunk.length);
    }
    bar?.stop();
    return where;
  });
  for (const [line, message] of problems.sort((a, b) => a[0] - b[0])) process.stderr.write(`line ${line}: ${message}\n`);
  console.log(`Erased ${erased} record(s) from ${where}; backups still hold them until they are rotated.`);
  if (problems.length > 0) console.log(`${problems.length} line(s) could not be erased: named on stderr.`);
  return problems.length === 0 ? EXIT.ok : EXIT.error;
}
