/**
 * The DNS the deliverability tests ask (scripts/dnsmasq.ts): one domain for each case
 * the check tells apart, with the verdict it must give.
 */
export const ZONE = [
  'local=/test/',
  'mx-host=mx.test,mail.mx.test,10',
  'host-record=mail.mx.test,127.0.0.1',
  'host-record=a-only.test,127.0.0.1',
  'host-record=aaaa-only.test,::1',
  // RFC 7505: preference 0, exchange "." (the root: one zero byte).
  'dns-rr=null-mx.test,15,000000',
  'log-queries',
];

/** Each domain and its verdict; refused.example is outside every zone the server answers for. */
export const DOMAINS = {
  'mx.test': 'ok',
  'a-only.test': 'ok',
  'aaaa-only.test': 'ok',
  'null-mx.test': 'no_mail',
  'missing.test': 'no_mail',
  'refused.example': 'unknown',
  'mailinator.com': 'disposable',
  'inbox.yopmail.com': 'disposable',
} as const;
