/**
 * E-mail normalisation (docs/api.md, "E-mail addresses"): surrounding whitespace is trimmed, the
 * whole address is lower-cased (contract part 2: "stored lower-cased") and an internationalised
 * domain is converted to its ASCII (punycode) form, so `a@münchen.de` and `a@xn--mnchen-3ya.de`
 * are one address. The local part is kept as typed, plus-addressing included. Validity is then
 * decided by the contract schema's email rule (which rejects quoted and non-ASCII local parts)
 * and its 254-character limit, applied to the normalised form.
 */
import { domainToASCII } from 'node:url';

export function normaliseEmail(raw: string): string {
  const address = raw.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return address;
  const ascii = domainToASCII(address.slice(at + 1));
  return ascii ? `${address.slice(0, at)}@${ascii}` : address;
}
