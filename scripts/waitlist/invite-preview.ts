/**
 * What a run would do, without doing it: the members it would pick (next in sign-up order,
 * matching the filters, never invited, a message can reach), counted per language for the
 * confirmation, and for --dry-run rendered, with --out one .eml file per message; those it would
 * leave out, counted by reason. Nothing is marked.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import { LANGS, type Lang } from '../../api/contract/index.ts';
import type { DomainCheck } from '../../api/deliverability/domain-check.ts';
import { composeInvitation, type Envelope, type Renderer } from '../../api/invite/compose.ts';
import type { RunSummary } from '../../api/invite/run.ts';
import { matchesInviteFilter, type InviteFilter } from '../../api/sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import type { OperatorStore } from '../../api/sidecar/store/waitlist-store.ts';
import { CHECKS_AHEAD } from './check.ts';
import { inOrder } from './in-order.ts';

/**
 * The next `count` members a run would send to: `first` (unconfirmed ones to resend), then the
 * never invited matching `filter`, in sign-up order, passing over those `check` leaves out.
 */
export async function nextInvitees(store: OperatorStore, filter: InviteFilter, count: number, first: WaitlistRecord[], check?: DomainCheck) {
  const picked: WaitlistRecord[] = [];
  const leftOut: RunSummary['leftOut'] = { disposable: 0, no_mail: 0 };
  async function* candidates() {
    yield* first;
    for await (const record of store.export({ lang: filter.lang })) if (!record.invitation && matchesInviteFilter(record, filter)) yield record;
  }
  for await (const [record, verdict] of inOrder(candidates(), CHECKS_AHEAD, async (record) => check?.(record.email))) {
    if (verdict === 'disposable' || verdict === 'no_mail') leftOut[verdict] += 1;
    else picked.push(record);
    if (picked.length >= count) break;
  }
  return { picked, leftOut };
}

/** "left out: 2 disposable, 1 no mail", or nothing when nobody was. */
export function leftOutLine({ disposable, no_mail }: RunSummary['leftOut']): string {
  return disposable + no_mail > 0 ? `; left out: ${disposable} disposable, ${no_mail} no mail` : '';
}

export function perLanguage(records: readonly { lang: Lang }[]): string {
  return LANGS.map((lang) => `${lang} ${records.filter((r) => r.lang === lang).length}`).join(', ');
}

/**
 * Renders every message (a template error shows here too); with `outDir`, writes 0001-en.eml,
 * 0002-de.eml, …: each as RFC 5322 bytes, exactly as the mail server would receive it (DKIM aside).
 */
export async function dryRun(render: Renderer, records: readonly WaitlistRecord[], envelope: Omit<Envelope, 'to' | 'messageId'>, domain: string, outDir?: string): Promise<void> {
  if (outDir) await mkdir(outDir, { recursive: true, mode: 0o700 });
  const width = Math.max(4, String(records.length).length);
  for (const [i, record] of records.entries()) {
    const message = composeInvitation(render(record), { ...envelope, to: record.email, messageId: `<dry-run-${i + 1}@${domain}>` });
    const bytes = await new MailComposer(message).compile().build();
    // Mode 0600: each file holds a member's address.
    if (outDir) await writeFile(path.join(outDir, `${String(i + 1).padStart(width, '0')}-${record.lang}.eml`), bytes, { mode: 0o600 });
  }
}
