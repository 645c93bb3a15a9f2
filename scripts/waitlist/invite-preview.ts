/**
 * What a run would do, without doing it: the members it would pick (next in sign-up order,
 * matching the filters, never invited), counted per language for the confirmation, and for
 * --dry-run rendered, with --out one .eml file per message. Nothing is marked.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import { LANGS, type Lang } from '../../api/contract/index.ts';
import { composeInvitation, type Envelope } from '../../api/invite/compose.ts';
import { matchesInviteFilter, type InviteFilter } from '../../api/sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import type { OperatorStore } from '../../api/sidecar/store/waitlist-store.ts';
import type { Renderer } from './invite-message.ts';

/** The next `count` never-invited members matching `filter`, after `first` (unconfirmed ones to resend). */
export async function nextInvitees(store: OperatorStore, filter: InviteFilter, count: number, first: WaitlistRecord[] = []): Promise<WaitlistRecord[]> {
  const picked = first.slice(0, count);
  if (picked.length >= count) return picked;
  for await (const record of store.export({ lang: filter.lang })) {
    if (record.invitation || !matchesInviteFilter(record, filter)) continue;
    picked.push(record);
    if (picked.length >= count) break;
  }
  return picked;
}

export function perLanguage(records: readonly { lang: Lang }[]): string {
  return LANGS.map((lang) => `${lang} ${records.filter((r) => r.lang === lang).length}`).join(', ');
}

/** One message as RFC 5322 bytes, exactly as the mail server would receive it (DKIM aside). */
export function messageBytes(render: Renderer, record: Pick<WaitlistRecord, 'lang' | 'createdAt'>, envelope: Envelope): Promise<Buffer> {
  return new MailComposer(composeInvitation(render(record), envelope)).compile().build();
}

/** Renders every message (a template error shows here too); with `outDir`, writes 0001-en.eml, 0002-de.eml, …. */
export async function dryRun(render: Renderer, records: readonly WaitlistRecord[], envelope: Omit<Envelope, 'to' | 'messageId'>, domain: string, outDir?: string): Promise<void> {
  if (outDir) await mkdir(outDir, { recursive: true, mode: 0o700 });
  const width = Math.max(4, String(records.length).length);
  for (const [i, record] of records.entries()) {
    const bytes = await messageBytes(render, record, { ...envelope, to: record.email, messageId: `<dry-run-${i + 1}@${domain}>` });
    // Mode 0600: each file holds a member's address.
    if (outDir) await writeFile(path.join(outDir, `${String(i + 1).padStart(width, '0')}-${record.lang}.eml`), bytes, { mode: 0o600 });
  }
}
