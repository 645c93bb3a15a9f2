/**
 * The mail server of invitations (SMTP_URL, MAIL_FROM, DKIM_* from api/config.ts) as nodemailer
 * sees it, and what a failed send means for the member. A handful of pooled connections, so the
 * handshake (STARTTLS, login) is paid once per connection rather than once per message.
 */
import { readFile } from 'node:fs/promises';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { StartupError } from '../sidecar/store/errors.ts';

/** sendMail hands one message over and resolves once the server accepted it (250 …). */
export type MailServer = Pick<Transporter, 'sendMail' | 'close'>;

/** The caller has checked that SMTP_URL is set. */
export async function openMailServer(config: Config, connections: number): Promise<MailServer> {
  const smtp = config.SMTP_URL!;
  const dkim = config.DKIM_DOMAIN && config.DKIM_SELECTOR && config.DKIM_PRIVATE_KEY_FILE
    ? { domainName: config.DKIM_DOMAIN, keySelector: config.DKIM_SELECTOR, privateKey: await readKey(config.DKIM_PRIVATE_KEY_FILE) }
    : undefined;
  return nodemailer.createTransport({
    pool: true,
    maxConnections: connections,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: !smtp.secure && smtp.starttls === 'required',
    ignoreTLS: !smtp.secure && smtp.starttls === 'off',
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    // Short enough that a dead server stops a run within a minute, long enough for a slow relay.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    dkim,
  });
}

async function readKey(file: string): Promise<string> {
  const key = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new StartupError(`DKIM_PRIVATE_KEY_FILE=${JSON.stringify(file)} cannot be read (${error.code ?? error.message}).`);
  });
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(key)) throw new StartupError(`DKIM_PRIVATE_KEY_FILE=${JSON.stringify(file)} holds no PEM private key (-----BEGIN PRIVATE KEY-----).`);
  return key;
}

/** What a failed send means for the message: run.ts says what each is and what it does. */
export function classifyFailure(error: unknown): 'deferred' | 'refused' | 'blocked' | 'unreachable' | 'unknown' {
  const e = error as { responseCode?: number; command?: string; code?: string; message?: string };
  if (typeof e.responseCode === 'number') {
    if (e.responseCode >= 400 && e.responseCode < 500) return 'deferred';
    return e.command === 'RCPT TO' || e.command === 'DATA' ? 'refused' : 'blocked';
  }
  if (e.code === 'ETLS' || e.code === 'EAUTH' || /STARTTLS|TLS/.test(e.message ?? '')) return 'blocked';
  if (e.code === 'EDNS' || /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|Greeting never received/.test(e.message ?? '')) return 'unreachable';
  return 'unknown';
}

/** The server's reply (or the failure) as one line, for the record and the operator; never the password. */
export function failureReply(error: unknown): string {
  const e = error as { response?: string; message?: string };
  return (e.response ?? e.message ?? String(error)).replace(/\s+/g, ' ').trim();
}
