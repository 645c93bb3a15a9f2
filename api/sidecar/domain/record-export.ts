/** Waitlist records as export lines: JSON lines (exactly as stored) or CSV (RFC 4180) with columns derived from the record schema. */
import { z } from 'zod';
import { WaitlistRecord } from './record.ts';

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Column names and how to read each one from a record. */
const COLUMNS: { name: string; read: (record: WaitlistRecord) => unknown }[] = Object.entries(WaitlistRecord.shape).flatMap(
  ([key, field]) => {
    // An optional group (the invitation) is flattened like a required one; its cells are empty when it is absent.
    const schema = field instanceof z.ZodOptional ? field.unwrap() : field;
    return schema instanceof z.ZodObject
      ? Object.keys(schema.shape).map((inner) => ({
          name: `${key}.${inner}`,
          read: (record: WaitlistRecord) => (record[key as keyof WaitlistRecord] as Record<string, unknown> | undefined)?.[inner],
        }))
      : [{ name: key, read: (record: WaitlistRecord) => record[key as keyof WaitlistRecord] }];
  },
);

export const CSV_COLUMNS: readonly string[] = COLUMNS.map((column) => column.name);

/**
 * OWASP "CSV Injection": a spreadsheet runs a cell that starts with = + - @ TAB or CR as a formula
 * (an address such as `-2+3@example.com` is valid). Such a cell gets a leading ' so it stays
 * text; the JSON Lines export stays exact.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

// RFC 4180 §2: fields with a comma, a double quote or a line break are quoted, quotes doubled.
function csvField(value: unknown): string {
  const raw = value === undefined || value === null ? '' : String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The line before the records (CSV header), or '' when the format has none. */
export function exportHeader(format: ExportFormat): string {
  return format === 'csv' ? `${CSV_COLUMNS.map(csvField).join(',')}\r\n` : '';
}

export function exportLine(format: ExportFormat, record: WaitlistRecord): string {
  if (format === 'jsonl') return `${JSON.stringify(record)}\n`;
  return `${COLUMNS.map((column) => csvField(column.read(record))).join(',')}\r\n`;
}
