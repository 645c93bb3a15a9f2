/**
 * Reads the sidecar's waitlist file the way an operator would: the JSON document in DATA_DIR.
 * The sidecar answers a sign-up only after its commit is on disk, so once the page shows the
 * outcome (or has landed on the thanks page), the record is in the file. Other files' sign-ups
 * keep committing meanwhile, and each commit overwrites an earlier generation's inode in place:
 * the file is read as one whole commit, through the store's own snapshot reader.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { WaitlistRecord } from '../../../api/sidecar/domain/record.ts';
import { readSnapshot } from '../../../api/sidecar/store/json/recycled-file.ts';
import { STORE_FILE_NAME } from '../../../api/sidecar/store/json/waitlist-store.ts';

export async function storedRecords(dataDir: string): Promise<WaitlistRecord[]> {
  const text = await readSnapshot(path.join(dataDir, STORE_FILE_NAME));
  if (text === undefined) throw new Error(`no waitlist file in ${dataDir}`);
  return (JSON.parse(text) as { records: WaitlistRecord[] }).records;
}

/** The record of one address (stored lower-cased), or undefined. */
export async function storedRecord(dataDir: string, email: string): Promise<WaitlistRecord | undefined> {
  const wanted = email.toLowerCase();
  return (await storedRecords(dataDir)).find((record) => record.email === wanted);
}

/**
 * An address no other test uses. Mixed case on purpose: the store must hold it lower-cased.
 * `example.com` is reserved for documentation (RFC 2606), so nothing is ever sent there.
 */
export function uniqueAddress(label: string): string {
  return `Browser.${label}.${randomUUID().slice(0, 8)}@Example.com`;
}
