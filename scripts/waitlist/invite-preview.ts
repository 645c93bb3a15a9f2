/**
 * What a run would do, without doing it: the members it would pick (next in sign-up order,
 * matching the filters, never invited), counted per language for the confirmation, and for
 * --dry-run rendered, with --out one .eml file per message. Nothing is marked.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import { LANGS, type Lang } from '../../api/contract/index.ts';
import type { DomainCheck } from '../../api/deliverability/domain-check.ts';
import type { Verdict } from '../../api/deliverability/verdict.ts';
import { composeInvitation, type Envelope } from '../../api/invite/compose.ts';
import type { RunSummary } from '../../api/invite/run.ts';
import { matchesInviteFilter, type InviteFilter } from '../../api/sidecar/domain/invitation.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import type { OperatorStore } from '../../api/sidecar/store/waitlist-store.ts';
import type { Renderer } from './invite-message.ts';

/** Checks of candidates asked ahead of the one awaited, so that lookups overlap. */
const LOOKAHEAD = 32;

/**
 * The next `count` members a run would send to: `first` (unconfirmed ones to resend), then the
 * never invited matching `filter`, in sign-up order, passing over those `check` leaves out.
 */
export async function nextInvitees(store: OperatorStore, filter: InviteFilter, count: number, first: WaitlistRecord[], check?: DomainCheck) {
  const picked: WaitlistRecord[] = [];
  const leftOut: RunSummary['leftOut'] = { disposable: 0, no_mail: 0 };
  const pending: [WaitlistRecord, Promise<Verdict | undefined>][] = [];
  // Whether `count` are picked once the oldest pending candidate is judged.
  const judgeOne = async () => {
    const [record, verdict] = pending.shift()!;
    const v = await verdict;
    if (v === 'disposable' || v === 'no_mail') leftOut[v] += 1;
    else picked.push(record);
    return picked.length >= count;
  };
  async function* candidates() {
    yield* first;
    for await (const record of store.export({ lang: filter.lang })) if (!record.invitation && matchesInviteFilter(record, filter)) yield record;
  }
  for await (const record of candidates()) {
    pending.push([record, Promise.resolve(check?.(record.email))]);
    if (pending.length >= LOOKAHEAD && (await judgeOne())) return { picked, leftOut };
  }
  while (pending.length > 0) if (await judgeOne()) break;
  return { picked, leftOut };
}

/** "left out: 2 disposable, 1 no mail", or nothing when nobody was. */
export function leftOutLine({ disposable, no_mail }: RunSummary['leftOut']): string {
  return disposable + no_mail > 0 ? `; left out: ${disposable} disposable, ${no_mail} no mail` : '';
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
