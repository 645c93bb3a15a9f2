/**
 * `npm run waitlist -- invite`: opens access to the next members, one message each, in the language
 * they chose. Its usage; the run is in invite-run.ts.
 */
import { BUILDING, LANGS, ROLES, SOURCES } from '../../api/contract/index.ts';
import type { Subcommand } from '../cli.ts';

export const invite: Subcommand = {
  synopsis:
    'invite --count N [--lang en|de] [--role R] [--building B] [--source S] [--dry-run [--out DIR]] [--to ADDRESS] [--rate PER_SECOND] [--yes] [--json] [--resend-unconfirmed] [--no-check]',
  help: [
    'Opens access to the next N members: one invitation each, in the language they chose, in sign-up order,',
    'never twice, never to an erased member. Asks before sending (count per language) on a terminal.',
    'The message: content/<lang>/messages/invite.md. The mail server: SMTP_URL, MAIL_FROM, DKIM_* (docs/operator.md).',
    '  --count N              how many members (those never invited, matching the filters)',
    '  --lang, --role, --building, --source   only members with this answer',
    '  --dry-run              select and render, send and mark nothing; prints the count per language',
    '  --out DIR              with --dry-run: one .eml file per message in DIR',
    '  --to ADDRESS           send one sample per language to ADDRESS (yourself); marks nobody',
    '  --rate PER_SECOND      messages per second (default 5, a usual provider limit); 0: no limit',
    '  --yes                  send without asking (scripts); without a terminal it is required',
    '  --json                 one JSON line per member (the only output with addresses), then a summary line',
    '  --resend-unconfirmed   also send to members an earlier run claimed but never confirmed',
    '                         (it stopped between handing over a message and the answer): they may have it already',
    '  --no-check             send to members at throwaway domains and domains that take no mail too (see check)',
  ].join('\n'),
  options: {
    count: { type: 'string' },
    lang: { type: 'string', choices: LANGS },
    role: { type: 'string', choices: ROLES },
    building: { type: 'string', choices: BUILDING },
    source: { type: 'string', choices: SOURCES },
    'dry-run': { type: 'boolean' },
    out: { type: 'string' },
    to: { type: 'string' },
    rate: { type: 'string' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    'resend-unconfirmed': { type: 'boolean' },
    'no-check': { type: 'boolean' },
  },
  // The mail and Markdown libraries load only for this command.
  run: async (parsed) => (await import('./invite-run.ts')).run(parsed),
};
