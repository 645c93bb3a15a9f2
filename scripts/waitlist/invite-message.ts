/**
 * The invitation of one member, rendered: the content templates of every language (checked as the
 * build checks them) filled with that member's values.
 */
import type { Config } from '../../api/config.ts';
import { escapeHtml } from '../../api/docs/escape-html.ts';
import type { RenderedMessage } from '../../api/invite/compose.ts';
import type { WaitlistRecord } from '../../api/sidecar/domain/record.ts';
import { StartupError } from '../../api/sidecar/store/errors.ts';
import { memberValues } from '../../site/lib/messages/member-values.ts';
import { fillMessage } from '../../site/lib/messages/placeholders.ts';
import { TemplateError } from '../../site/lib/messages/template-file.ts';
import { loadMessage } from '../../site/lib/messages/templates.ts';

export type Renderer = (record: Pick<WaitlistRecord, 'lang' | 'createdAt'>) => RenderedMessage;

/** Loads the templates; StartupError naming the file and line of a broken one, or the setting a template needs. */
export async function invitationRenderer(root: string, config: Config): Promise<Renderer> {
  const messages = await loadMessage(root, 'invite').catch((error: unknown) => {
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
