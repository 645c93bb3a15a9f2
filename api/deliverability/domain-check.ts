/**
 * The check an invite run and `waitlist check` call per member: the verdict (verdict.ts) of the
 * address's domain, asked once per domain for the life of the check (one run), each query with a
 * timeout and one retry (c-ares' own `timeout` and `tries`). The callers bound the lookups in
 * flight: they ask about a few members at a time (scripts/waitlist/in-order.ts, a run's claims).
 */
import { Resolver } from 'node:dns/promises';
import { DISPOSABLE_DOMAINS } from './throwaway-domains.ts';
import { domainOf, isDisposable, mailVerdict, type Answer, type Verdict } from './verdict.ts';

interface DomainCheckOptions {
  /** Resolvers as `ip`, `ip:port` or `[ipv6]:port` (config DNS_SERVERS); empty or unset: the system's. */
  servers?: readonly string[];
  /** How long one query waits for its answer before its one retry. */
  timeoutMs?: number;
}

export type DomainCheck = (email: string) => Promise<Verdict>;

export function createDomainCheck({ servers = [], timeoutMs = 2000 }: DomainCheckOptions = {}): DomainCheck {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  const ask = <T>(query: Promise<T[]>): Promise<Answer<T>> =>
    query.then((records) => ({ records }), (error: NodeJS.ErrnoException) => ({ code: error.code ?? 'EUNKNOWN' }));
  const lookUp = async (domain: string) =>
    mailVerdict(...(await Promise.all([ask(resolver.resolveMx(domain)), ask(resolver.resolve4(domain)), ask(resolver.resolve6(domain))])));
  const verdicts = new Map<string, Promise<Verdict>>();
  return (email) => {
    const domain = domainOf(email);
    if (isDisposable(domain, DISPOSABLE_DOMAINS)) return Promise.resolve('disposable');
    let verdict = verdicts.get(domain);
    if (!verdict) verdicts.set(domain, (verdict = lookUp(domain)));
    return verdict;
  };
}
