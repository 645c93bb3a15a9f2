/**
 * What an invite run shows while it goes: a progress bar on a terminal (stderr), and with --json
 * one JSON line per member outcome on stdout, the only place an address appears, then a summary
 * line. Server replies are passed through the log redaction (a reply often quotes the recipient).
 * First, the members an earlier run left claimed and unconfirmed (docs/operator.md, "Failure
 * states and what to do"): listed by Message-ID, never sent again or skipped silently.
 */
import type { Outcome, RunSummary } from '../../api/invite/run.ts';
import { redact } from '../../api/log/redact.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { printJson } from '../cli.ts';
import { leftOutLine } from './invite-preview.ts';
import { progressBar } from './progress.ts';

export function runOutput(total: number, json: boolean) {
  const started = performance.now();
  const counts = { sent: 0, failed: 0, done: 0 };
  const payload = () => {
    const seconds = (performance.now() - started) / 1000;
    return { sent: counts.sent, failed: counts.failed, left: total - counts.done, speed: seconds > 0 ? (counts.done / seconds).toFixed(1) : '0.0' };
  };
  const format = ' {bar} {value}/{total} | sent {sent} | failed {failed} | left {left} | {speed}/s | time left {eta_formatted}';
  const bar = progressBar(total, format, payload(), 50);
  return {
    outcome(outcome: Outcome) {
      if (json) printJson(outcome);
      // Left out: counted in the summary, never among the messages the bar counts.
      if (outcome.state === 'left_out') return;
      counts.done += 1;
      if (outcome.state === 'sent' || outcome.state === 'failed') counts[outcome.state] += 1;
      if (outcome.state !== 'sent' && !json) {
        const line = `  ${outcome.state.replace('_', ' ')} (${outcome.lang}, ${outcome.messageId}): ${redact(outcome.reply ?? '')}`;
        // Clears the bar's line first; the bar redraws below on the next update.
        process.stderr.write(`${bar ? '\r\x1b[K' : ''}${line}\n`);
      }
      bar?.increment(1, payload());
    },
    finish(summary: RunSummary) {
      bar?.update(payload());
      bar?.stop();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stderr.write(
        `Sent ${summary.sent}, failed ${summary.failed}, not sent ${summary.notSent}, unconfirmed ${summary.unconfirmed}${leftOutLine(summary.leftOut)} (${seconds} s).\n`,
      );
      if (summary.stopped) process.stderr.write(`Stopped: ${redact(summary.stopped)}. Run the same command again to continue where it stopped.\n`);
      if (json) printJson({ summary });
    },
  };
}

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
