/**
 * The deliverability check an invite run and `waitlist check` call per member
 * (api/deliverability/domain-check.ts), against a real DNS server (dnsmasq): the verdict of each
 * kind of domain, one lookup per domain for the life of a check, and a server that never answers.
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDomainCheck } from '../../api/deliverability/domain-check.ts';
import { DNSMASQ_BINARY, startDnsmasq, type DnsServer } from '../../scripts/dnsmasq.ts';
import { describeWithEngine } from '../support/engines/require.ts';
import { DOMAINS, ZONE } from './support/dns-zone.ts';

describeWithEngine('dnsmasq', DNSMASQ_BINARY, 'deliverability check', () => {
  let dns: DnsServer;
  let silent: Socket;
  beforeAll(async () => {
    dns = await startDnsmasq(ZONE);
    // Takes queries and never answers: a resolver that timed out.
    silent = createSocket('udp4');
    await new Promise<void>((bound) => silent.bind(0, '127.0.0.1', bound));
  });
  afterAll(async () => {
    await dns?.stop();
    silent?.close();
  });

  it('check: MX -> ok; A or AAAA only (RFC 5321 implicit MX) -> ok; null MX (RFC 7505) or NXDOMAIN -> no_mail; REFUSED -> unknown; listed domain or its subdomain -> disposable', async () => {
    const check = createDomainCheck({ servers: [dns.address] });
    const verdicts = Object.fromEntries(await Promise.all(Object.keys(DOMAINS).map(async (domain) => [domain, await check(`someone@${domain}`)])));
    expect(verdicts).toEqual(DOMAINS);
  });

  it('check: a domain is looked up once per check, however many members share it; a throwaway domain is never looked up', async () => {
    const check = createDomainCheck({ servers: [dns.address] });
    const before = dns.log().length;
    const members = Array.from({ length: 20 }, (_, i) => [`m${i}@a-only.test`, `d${i}@mailinator.com`]).flat();
    const verdicts = await Promise.all(members.map((email) => check(email)));
    expect(new Set(verdicts)).toEqual(new Set(['ok', 'disposable']));
    const queries = dns.log().slice(before).split('\n').filter((line) => /query\[/.test(line));
    expect(queries.filter((line) => line.includes('query[MX] a-only.test'))).toHaveLength(1);
    expect(queries.filter((line) => line.includes('mailinator'))).toEqual([]);
  });

  it('check: a resolver that never answers -> unknown after the timeout and its one retry, never a bad verdict', async () => {
    const { port } = silent.address();
    const check = createDomainCheck({ servers: [`127.0.0.1:${port}`], timeoutMs: 100 });
    expect(await check('someone@mx.test')).toBe('unknown');
  });
});
