/** /.well-known/security.txt, RFC 9116. */
import { LANGS } from '../../api/contract/enums.ts';
import { DISCOVERY_PATHS } from '../../api/contract/paths.ts';

/** RFC 9116 §2.5.5 recommends less than a year; half a year leaves room for a forgotten rebuild. */
export const SECURITY_TXT_LIFETIME_DAYS = 180;

export function buildSecurityTxt(contact: string, baseUrl: string, now: Date): string {
  const expires = new Date(now.getTime() + SECURITY_TXT_LIFETIME_DAYS * 86_400_000);
  return [
    `Contact: ${contact}`,
    // RFC 9116 §2.5.5: an RFC 3339 date-time; whole seconds in UTC.
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    `Preferred-Languages: ${LANGS.join(', ')}`,
    `Canonical: ${baseUrl}${DISCOVERY_PATHS.securityTxt}`,
    '',
  ].join('\n');
}
