/** `invite --to ADDRESS`: one sample of each language to the operator's own address; nobody is marked. */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../api/config.ts';
import type { Lang } from '../../api/contract/index.ts';
import { composeInvitation } from '../../api/invite/compose.ts';
import { failureReply, openMailServer } from '../../api/invite/transport.ts';
import { newMessageId } from '../../api/sidecar/domain/invitation.ts';
import { redact } from '../../api/log/redact.ts';
import { EXIT } from '../cli.ts';
import type { Renderer } from './invite-message.ts';

export async function sendSamples(config: Config, render: Renderer, langs: Lang[], envelope: { from: string; to: string; domain: string }): Promise<number> {
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
