/**
 * The run of `npm run waitlist -- invite`: selection, confirmation, samples, and the invitation
 * rendered from the content templates. invite.ts loads this file only when the command runs, so
 * that the other commands never load the mail and Markdown libraries.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { configOrExit, type Config } from '../../api/config.ts';
import { BRAND } from '../../api/contract/brand.ts';
import { LANGS, type Lang } from '../../api/contract/index.ts';
import { createDomainCheck } from '../../api/deliverability/domain-check.ts';
import { escapeHtml } from '../../api/docs/escape-html.ts';
import { composeInvitation, senderDomain, type Renderer } from '../../api/invite/compose.ts';
import { runInvitations } from '../../api/invite/run.ts';
import { failureReply, openMailServer } from '../../api/invite/transport.ts';
import { redact } from '../../api/log/redact.ts';
import { normaliseEmail } from '../../api/sidecar/domain/email.ts';
import { newMessageId, type InviteFilter } from '../../api/sidecar/domain/invitation.ts';
import { StartupError } from '../../api/sidecar/store/errors.ts';
import { fillMessage, memberValues } from '../../site/lib/messages/placeholders.ts';
import { TemplateError } from '../../site/lib/messages/template-file.ts';
import { loadMessage } from '../../site/lib/messages/templates.ts';
import { askToGoOn, EXIT, numberOption, printJson, UsageError, type Parsed } from '../cli.ts';
import { reportUnconfirmed, runOutput } from './invite-output.ts';
import { dryRun, leftOutLine, nextInvitees, perLanguage } from './invite-preview.ts';
import { withStore } from './store.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Messages in flight at once (SMTP connections of the pool). */
const CONNECTIONS = 4;
/** Tries of one message against 4xx or an unreachable server; waits 1 s, 2 s, 4 s between them. */
const ATTEMPTS = 4;
const BACKOFF_MS = 1000;

/** Loads the templates; StartupError naming the file and line of a broken one, or the setting a template needs. */
async function invitationRenderer(config: Config): Promise<Renderer> {
  const messages = await loadMessage(ROOT, 'invite').catch((error: unknown) => {
    throw error instanceof TemplateError ? new StartupError(`${error.message}\nNothing was sent.`) : error;
  });
  for (const message of Object.values(messages)) {
    if (!config.INVITE_URL && `${message.subject}${message.text}`.includes('{access_url}')) {
      throw new StartupError(`${message.source} uses {access_url}: set INVITE_URL to the link members should open (e.g. https://app.example.org/start).`);
    }
  }
  const shared = { baseUrl: config.BASE_URL, accessUrl: config.INVITE_URL };
  return (record) => {
    const message = messages[record.lang];
    const values = memberValues(shared, record.lang, record.createdAt);
    return {
      lang: record.lang,
      subject: fillMessage(message.subject, values),
      html: fillMessage(message.html, values, escapeHtml),
      text: fillMessage(message.text, values),
    };
  };
}

/** `invite --to ADDRESS`: one sample of each language to the operator's own address; nobody is marked. */
async function sendSamples(config: Config, render: Renderer, langs: Lang[], envelope: { from: string; to: string; domain: string }): Promise<number> {
  const mail = await openMailServer(config, 1);
  try {
    for (const lang of langs) {
      const now = new Date();
      const messageId = newMessageId(randomUUID(), envelope.domain);
      try {
        await mail.sendMail(composeInvitation(render({ lang, createdAt: now.toISOString() }), { from: envelope.from, to: envelope.to, messageId, date: now }));
      } catch (error) {
        process.stderr.write(`The ${lang} sample was not sent: ${redact(failureReply(error))}\n`);
        return EXIT.error;
      }
      // The address is the one the operator typed, echoed back.
      process.stderr.write(`Sent the ${lang} sample to ${envelope.to} (${messageId}). Nobody on the list was marked.\n`);
    }
    return EXIT.ok;
  } finally {
    mail.close();
  }
}

export async function run({ values }: Parsed): Promise<number> {
  const count = numberOption('count', values.count, { min: 1, whole: true });
  const rate = numberOption('rate', values.rate, { min: 0 }) ?? 5;
  const to = typeof values.to === 'string' ? normaliseEmail(values.to) : undefined;
  if (to !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to)) throw new UsageError(`--to must be an e-mail address, not ${JSON.stringify(values.to)}`);
  if (count === undefined && to === undefined) throw new UsageError('--count N is required (or --to ADDRESS for a sample)');
  if (values.out !== undefined && !values['dry-run']) throw new UsageError('--out writes the messages of a --dry-run: add --dry-run');
  const filter: InviteFilter = {};
  for (const key of ['lang', 'role', 'building', 'source'] as const) if (typeof values[key] === 'string') Object.assign(filter, { [key]: values[key] });
  const dry = values['dry-run'] === true;
  const json = values.json === true;

  const config = configOrExit();
  if (!dry && !config.SMTP_URL) {
    process.stderr.write('No mail server configured: set SMTP_URL (e.g. smtp://user:password@mail.example.org:587) to send; --dry-run and --out work without it.\n');
    return EXIT.error;
  }
  const render = await invitationRenderer(config);
  // Unset MAIL_FROM: the operator, as on the imprint.
  const from = config.MAIL_FROM ?? `"${BRAND.operator.name.replace(/["\\]/g, '')}" <${BRAND.operator.email}>`;
  const domain = senderDomain(from);
  const langs: Lang[] = filter.lang ? [filter.lang] : [...LANGS];

  if (to !== undefined) {
    if (dry) {
      for (const lang of langs) render({ lang, createdAt: new Date().toISOString() });
      process.stderr.write(`Rendered a sample in ${langs.join(', ')}; nothing was sent (--dry-run).\n`);
      return EXIT.ok;
    }
    return sendSamples(config, render, langs, { from, to, domain });
  }

  return withStore(dry ? 'read' : 'write', async ({ store }) => {
    const unconfirmed = await store.unconfirmedInvitations(filter);
    reportUnconfirmed(unconfirmed, { json, resend: values['resend-unconfirmed'] === true });
    const check = values['no-check'] ? undefined : createDomainCheck({ servers: config.DNS_SERVERS });
    const { picked, leftOut } = await nextInvitees(store, filter, count!, values['resend-unconfirmed'] ? unconfirmed : [], check);
    if (picked.length === 0) {
      process.stderr.write(`Nobody left to invite (never invited, matching the filters)${leftOutLine(leftOut)}.\n`);
      if (json) printJson({ summary: { sent: 0, failed: 0, unconfirmed: 0, notSent: 0, leftOut } });
      return EXIT.ok;
    }
    if (dry) {
      const out = typeof values.out === 'string' ? values.out : undefined;
      await dryRun(render, picked, { from, date: new Date() }, domain, out);
      const written = out ? `, written to ${out}` : '';
      process.stderr.write(`Dry run: ${picked.length} message(s) would go out (${perLanguage(picked)})${written}${leftOutLine(leftOut)}. Nobody was marked.\n`);
      return EXIT.ok;
    }
    if (values.yes !== true) {
      const question = `Send ${picked.length} invitation(s) (${perLanguage(picked)}) from ${from} via ${config.SMTP_URL!.shown}?`;
      const stop = await askToGoOn(question, `${picked.length} invitation(s) would go out (${perLanguage(picked)})`, { message: 'Nothing was sent.', code: EXIT.ok });
      if (stop !== undefined) return stop;
    }
    const mail = await openMailServer(config, CONNECTIONS);
    const output = runOutput(picked.length, json);
    const interrupt = new AbortController();
    const onSignal = () => interrupt.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const summary = await runInvitations(
        { store, mail, check, render, now: () => new Date(), onOutcome: output.outcome, signal: interrupt.signal },
        {
          count: count!,
          filter,
          rate,
          resendUnconfirmed: values['resend-unconfirmed'] === true,
          from,
          connections: rate > 0 ? Math.min(CONNECTIONS, Math.ceil(rate)) : CONNECTIONS,
          attempts: ATTEMPTS,
          backoffMs: BACKOFF_MS,
        },
      );
      output.finish(summary);
      return summary.stopped ? EXIT.error : EXIT.ok;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      mail.close();
    }
  });
}
