/**
 * E-mail normalisation (docs/api.md, "E-mail addresses"): trimmed, lower-cased whole (contract part
 * 2), an internationalised domain in its ASCII form, so both spellings are one address. Validity is
 * then the contract schema's, applied to the normalised form.
 */
import { domainToASCII } from 'node:url';

export function normaliseEmail(raw: string): string {
  const address = raw.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return address;
  const ascii = domainToASCII(address.slice(at + 1));
  return ascii ? `${address.slice(0, at)}@${ascii}` : address;
}
