/**
 * One member's invitation as a message: their language's subject and bodies (rendered from the
 * content templates by the caller), and the headers a well-behaved bulk sender sets:
 * List-Unsubscribe (RFC 2369) to the operator, who removes the member with `waitlist erase`;
 * Message-ID on the operator's domain (the claim's, so the record names it); Date; Content-Language.
 */
import type { SendMailOptions } from 'nodemailer/lib/mailer';
import { BRAND } from '../contract/brand.ts';
import type { Lang } from '../contract/index.ts';
import type { WaitlistRecord } from '../sidecar/domain/record.ts';
import { domainOf } from '../deliverability/verdict.ts';

export interface RenderedMessage {
  lang: Lang;
  subject: string;
  html: string;
  text: string;
}

/** A member's invitation from the content templates: what it says depends on their language and sign-up time. */
export type Renderer = (record: Pick<WaitlistRecord, 'lang' | 'createdAt'>) => RenderedMessage;

export interface Envelope {
  /** MAIL_FROM, or the operator's name and address. */
  from: string;
  to: string;
  messageId: string;
  date: Date;
}

/** The domain of a sender (`Name <a@b.example>` -> b.example), for Message-IDs. */
export function senderDomain(from: string): string {
  return domainOf(/<([^>]+)>\s*$/.exec(from)?.[1] ?? from);
}

export function composeInvitation(message: RenderedMessage, envelope: Envelope): SendMailOptions {
  const operator = BRAND.operator.email;
  return {
    ...envelope,
    replyTo: operator,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: {
      'List-Unsubscribe': `<mailto:${operator}?subject=unsubscribe>`,
      'Content-Language': message.lang,
    },
  };
}
