/** A JSON store file of `size` records in `dir`, written as the sidecar writes it (the benches' starting point). */
import { join } from 'node:path';
import { CONSENT_TEXT_VERSION } from '../../api/sidecar/domain/consent.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { replaceFileDurably } from '../../api/sidecar/store/durable-file.ts';
import { RecordTable } from '../../api/sidecar/store/json/record-table.ts';
import { storeCodec } from '../../api/sidecar/store/json/store-file.ts';
import { STORE_FILE_NAME } from '../../api/sidecar/store/json/waitlist-store.ts';

export async function writeStoreFile(dir: string, size: number): Promise<void> {
  const path = join(dir, STORE_FILE_NAME);
  await replaceFileDurably(path, storeCodec(path).serialize(new RecordTable(seedRecords(size))));
}

/** `size` records as sign-ups leave them (`seed<i>@example.com`, in that order), never invited. */
export function seedRecords(size: number): WaitlistRecord[] {
  const at = new Date().toISOString();
  const records: WaitlistRecord[] = [];
  for (let i = 0; i < size; i++) {
    records.push({
      email: `seed${i}@example.com`,
      createdAt: at,
      consentAt: at,
      updatedAt: at,
      lang: i % 3 ? 'en' : 'de',
      role: 'developer',
      building: 'agents',
      source: 'hero',
      consent: { form: 'hero', channel: 'form', lang: 'en', textVersion: CONSENT_TEXT_VERSION },
    });
  }
  return records;
}
