/**
 * Whether a message to an address can arrive, judged from its domain: on the list of throwaway
 * domains (no DNS needed), or by what DNS says about the domain's mail. Pure: the list and the
 * answers are passed in (domain-check.ts asks DNS).
 */
import type { MxRecord } from 'node:dns';

export const VERDICTS = ['ok', 'disposable', 'no_mail', 'unknown'] as const;
/**
 * disposable: a throwaway domain; no_mail: DNS says the domain takes no mail; unknown: the lookup
 * failed, which says nothing about the address; ok: everything else.
 */
export type Verdict = (typeof VERDICTS)[number];

/** A DNS answer: the records, or the resolver's error code (node:dns, e.g. ENODATA, ENOTFOUND, ETIMEOUT). */
export type Answer<T> = { records: T[] } | { code: string };

/** The domain of a stored (normalised) address: after its last `@`. */
export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** Whether the domain, or a domain it belongs to (`x.mailinator.com`), is on the list. */
export function isDisposable(domain: string, list: ReadonlySet<string>): boolean {
  let name = domain;
  while (!list.has(name)) {
    const dot = name.indexOf('.');
    if (dot === -1) return false;
    name = name.slice(dot + 1);
  }
  return true;
}

/** The records: none for NODATA or NXDOMAIN (answers too); undefined when the lookup failed. */
function recordsOf<T>(answer: Answer<T>): T[] | undefined {
  if ('records' in answer) return answer.records;
  return answer.code === 'ENODATA' || answer.code === 'ENOTFOUND' ? [] : undefined;
}

/** The verdict from a domain's MX, A and AAAA answers. */
export function mailVerdict(mx: Answer<MxRecord>, a: Answer<string>, aaaa: Answer<string>): Verdict {
  // The domain does not exist.
  if ('code' in mx && mx.code === 'ENOTFOUND') return 'no_mail';
  const exchanges = recordsOf(mx);
  if (exchanges === undefined) return 'unknown';
  // RFC 7505 §3: a null MX (preference 0, exchange ".", which node:dns reads as "") says the domain takes no mail.
  if (exchanges.length > 0) return exchanges.every((record) => record.exchange === '') ? 'no_mail' : 'ok';
  // RFC 5321 §5.1: with no MX record, the domain's own address is its mail server (the implicit MX).
  const addresses = [recordsOf(a), recordsOf(aaaa)];
  if (addresses.some((records) => records !== undefined && records.length > 0)) return 'ok';
  return addresses.includes(undefined) ? 'unknown' : 'no_mail';
}
