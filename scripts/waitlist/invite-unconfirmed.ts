/**
 * Members an earlier run claimed and never confirmed: it stopped (a crash, a kill, a lost
 * connection) between handing their message to the mail server and the server's answer, so they
 * may have it. Every run lists them first; none is sent again or skipped silently. The log names
 * them by Message-ID (to look up in the mail server's log), --json by address too.
 */
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { printJson } from '../cli.ts';

/** Message-IDs listed in the log before "and N more". */
const LISTED = 20;

export function reportUnconfirmed(records: readonly WaitlistRecord[], { json, resend }: { json: boolean; resend: boolean }): void {
  if (records.length === 0) return;
  const lines = [
    `${records.length} member(s) were claimed by an earlier run that stopped before the mail server confirmed their message; they may have received it.`,
    resend
      ? 'They are sent again first (--resend-unconfirmed).'
      : 'They are not sent again: check the Message-IDs in the mail server\'s log; to send to them anyway, add --resend-unconfirmed.',
    ...records.slice(0, LISTED).map((r) => `  ${r.invitation!.messageId} claimed ${r.invitation!.claimedAt} (${r.lang})`),
    ...(records.length > LISTED ? [`  … and ${records.length - LISTED} more (--json lists them all)`] : []),
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
  if (json) {
    for (const r of records) printJson({ email: r.email, lang: r.lang, state: 'unconfirmed', messageId: r.invitation!.messageId, claimedAt: r.invitation!.claimedAt, earlierRun: true });
  }
}
