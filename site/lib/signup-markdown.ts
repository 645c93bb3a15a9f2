/**
 * The section a twin carries instead of the sign-up form: how to join the waitlist through the
 * API. Every field name, enum value, limit, code and URL comes from the contract.
 */
import { BUILDING, DEFAULT_LANG, LANGS, ROLES, SOURCES, type Lang } from '../../api/contract/enums.ts';
import { ERROR_STATUS, type ErrorCode } from '../../api/contract/errors.ts';
import { EMAIL_MAX_LENGTH } from '../../api/contract/limits.ts';
import { PAGE_PATHS, THANKS_PATHS, environmentUrls } from '../../api/contract/paths.ts';
import type { Accepted } from '../../api/contract/schemas.ts';
import { FIELD } from './signup-fields.ts';
import { BASE_URL } from './site-config.ts';

const code = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(', ');
const error = (name: ErrorCode) => `\`${ERROR_STATUS[name]} ${name}\``;
const ACCEPTED: Accepted = { accepted: true };

export function signupMarkdown(lang: Lang): string {
  const production = environmentUrls(BASE_URL, 'production');
  const sandbox = environmentUrls(BASE_URL, 'sandbox');
  const privacy = `${BASE_URL}${PAGE_PATHS.privacy[lang]}`;
  const example = JSON.stringify({ [FIELD.email]: 'you@example.com', [FIELD.consent]: true, [FIELD.building]: BUILDING[0], [FIELD.lang]: lang });
  const curl = (url: string) =>
    ['```sh', `curl -i -X POST ${url} \\`, `  -H 'Content-Type: application/json' \\`, `  -d '${example}'`, '```'].join('\n');
  if (lang === 'de') {
    return `## Über die API eintragen

Diese Seite hat ein Anmeldeformular. Ohne Browser senden Sie dieselben Angaben als JSON an \`POST ${production.waitlist}\`:

- \`${FIELD.email}\` (Pflicht): die E-Mail-Adresse, höchstens ${EMAIL_MAX_LENGTH} Zeichen; sie wird kleingeschrieben gespeichert.
- \`${FIELD.consent}\` (Pflicht): muss \`true\` sein. Tragen Sie eine Adresse nur mit der ausdrücklichen Einwilligung ihrer Inhaberin oder ihres Inhabers ein, nach der [Datenschutzerklärung](${privacy}).
- \`${FIELD.role}\` (optional): ${code(ROLES)}.
- \`${FIELD.building}\` (optional): ${code(BUILDING)}.
- \`${FIELD.lang}\` (optional): ${code(LANGS)}, die Sprache der späteren Nachricht (Standard \`${DEFAULT_LANG}\`).
- \`${FIELD.source}\` (optional): ${code(SOURCES)}, nur für die Formulare der Website; über die API weglassen.

Jedes andere Feld wird mit ${error('invalid_request')} abgelehnt. Die Antwort ist \`200\` mit \`${JSON.stringify(ACCEPTED)}\`, für neue wie für bereits bekannte Adressen gleich. Fehler: ${error('invalid_email')}, ${error('consent_required')} und ${error('rate_limited')} mit \`Retry-After\` in Sekunden. Formular-kodierte Anfragen (\`application/x-www-form-urlencoded\`) erhalten stattdessen \`303\` auf ${BASE_URL}${THANKS_PATHS[lang]}.

${curl(production.waitlist)}

Probieren Sie es zuerst in der Sandbox, die nichts speichert: \`POST ${sandbox.waitlist}\`. Einzelheiten im [API-Leitfaden](${BASE_URL}${PAGE_PATHS.guide[lang]}).
`;
  }
  return `## Sign up through the API

This page has a sign-up form. Without a browser, send the same data as JSON to \`POST ${production.waitlist}\`:

- \`${FIELD.email}\` (required): the e-mail address, at most ${EMAIL_MAX_LENGTH} characters; it is stored lower-cased.
- \`${FIELD.consent}\` (required): must be \`true\`. Only submit an address with the explicit consent of its owner, as described in the [privacy notice](${privacy}).
- \`${FIELD.role}\` (optional): ${code(ROLES)}.
- \`${FIELD.building}\` (optional): ${code(BUILDING)}.
- \`${FIELD.lang}\` (optional): ${code(LANGS)}, the language of the later notification (default \`${DEFAULT_LANG}\`).
- \`${FIELD.source}\` (optional): ${code(SOURCES)}, for the site's forms only; leave it out in API calls.

Any other field is rejected with ${error('invalid_request')}. The answer is \`200\` with \`${JSON.stringify(ACCEPTED)}\`, the same for new and for known addresses. Errors: ${error('invalid_email')}, ${error('consent_required')}, and ${error('rate_limited')} with \`Retry-After\` in seconds. Form-encoded requests (\`application/x-www-form-urlencoded\`) get \`303\` to ${BASE_URL}${THANKS_PATHS[lang]} instead.

${curl(production.waitlist)}

Try it first in the sandbox, which stores nothing: \`POST ${sandbox.waitlist}\`. Details are in the [API guide](${BASE_URL}${PAGE_PATHS.guide[lang]}).
`;
}
