/**
 * Operator command for the waitlist data (DATA_DIR/waitlist.json):
 *
 *   npm run waitlist -- export [--format=jsonl|csv]   every record, every field, to stdout
 *   npm run waitlist -- count                         the number of records
 *   npm run waitlist -- erase <address>               removes one address (GDPR Art. 17)
 *
 * export and count only read the file: safe while the sidecar runs (every commit is an atomic
 * rename), and they show the last commit. erase writes, so it takes the data-directory lock
 * through the store code, like the sidecar does: while the sidecar runs it refuses (exit 1), since
 * the sidecar is the single writer and keeps its own copy in memory. Exit codes: 0 done, 1 error
 * or data directory in use, 2 usage, 3 no record of that address.
 * Nothing here prints an address from the data; erase echoes only what the operator typed.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { configOrExit } from '../api/config.ts';
import { normaliseEmail } from '../api/sidecar/domain/email.ts';
import { EXPORT_FORMATS, exportHeader, exportLine, type ExportFormat } from '../api/sidecar/domain/record-export.ts';
import { StartupError } from '../api/sidecar/store/errors.ts';
import { LockHeldError, acquireLock, dataDirLockPath } from '../api/sidecar/store/lock.ts';
import { JsonWaitlistStore, STORE_FILE_NAME, readCommittedRecords } from '../api/sidecar/store/json/waitlist-store.ts';
import type { RecordTable } from '../api/sidecar/store/json/record-table.ts';

const USAGE = `usage: npm run waitlist -- export [--format=${EXPORT_FORMATS.join('|')}] | count | erase <address>`;
const EXIT_NOT_FOUND = 3;
/** Lines gathered per write to stdout. */
const LINES_PER_WRITE = 1000;

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const format = command === 'export' ? exportFormat(rest) : undefined;
  const address = command === 'erase' && rest.length === 1 ? rest[0] : undefined;
  const valid = (command === 'export' && format) || (command === 'count' && rest.length === 0) || (command === 'erase' && address?.trim());
  if (!valid) {
    console.error(USAGE);
    return 2;
  }
  const dataDir = resolve(configOrExit().DATA_DIR);
  const path = join(dataDir, STORE_FILE_NAME);
  if (command === 'erase') return erase(dataDir, path, address!);
  const records = await readCommittedRecords(dataDir);
  if (!records) return noDataFile(path);
  if (command === 'count') {
    console.log(records.size);
    return 0;
  }
  await writeExport(records, format!);
  return 0;
}

function exportFormat(options: string[]): ExportFormat | undefined {
  if (options.length === 0) return 'jsonl';
  const match = options.length === 1 ? /^--format=(.*)$/.exec(options[0]) : null;
  return EXPORT_FORMATS.find((format) => format === match?.[1]);
}

function noDataFile(path: string): number {
  console.error(`There is no waitlist data file at ${path}. Check DATA_DIR (the sidecar creates the file when it first starts).`);
  return 1;
}

async function writeExport(records: RecordTable, format: ExportFormat): Promise<void> {
  let lines = [exportHeader(format)];
  for (const record of records.values()) {
    lines.push(exportLine(format, record));
    if (lines.length >= LINES_PER_WRITE) {
      await write(lines.join(''));
      lines = [];
    }
  }
  await write(lines.join(''));
}

/** Writes to stdout and waits for it to drain, so a large export does not pile up in memory. */
function write(text: string): Promise<void> {
  return new Promise((done) => {
    if (process.stdout.write(text)) done();
    else process.stdout.once('drain', done);
  });
}

async function erase(dataDir: string, path: string, typed: string): Promise<number> {
  const email = normaliseEmail(typed);
  if (!(await stat(path).catch(() => undefined))) return noDataFile(path);
  let lock;
  try {
    lock = await acquireLock(dataDirLockPath(dataDir), `The data directory ${dataDir}`);
  } catch (error) {
    if (!(error instanceof LockHeldError)) throw error;
    console.error(
      `The sidecar is running (pid ${error.owner}) on ${dataDir}; it is the only writer of the waitlist and keeps it in memory. ` +
        'Stop the service, erase, start again. Nothing was changed.',
    );
    return 1;
  }
  try {
    const store = await JsonWaitlistStore.open(dataDir);
    const found = await store.erase(email);
    await store.close();
    const lookedUp = `${JSON.stringify(typed)} (looked up as ${email})`;
    if (!found) {
      console.log(`No record of ${lookedUp}. Nothing was changed.`);
      return EXIT_NOT_FOUND;
    }
    console.log(`Erased the record of ${lookedUp}. ${path} no longer holds it; backups still do until they are rotated.`);
    return 0;
  } finally {
    await lock.release();
  }
}

// `npm run waitlist -- export | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 1));

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof StartupError ? error.message : `waitlist: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
