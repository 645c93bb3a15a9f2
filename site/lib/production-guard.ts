/**
 * The production guard (docs/deploy.md, "Before the first deploy"): a public site's imprint (§ 5 DDG)
 * and security.txt (RFC 9116) must name the real operator, not the samples this repository ships with.
 */
import type { Config } from '../../api/config.ts';
import { BRAND } from '../../api/contract/brand.ts';

/** Reserved example domains and TLDs (RFC 2606, RFC 6761), German placeholder names, runs of zeros. */
const SAMPLE_MARKERS: readonly RegExp[] = [
  /(^|[@.:/])example\.(org|com|net)\b/i,
  /\.(example|test|invalid)\b/i,
  /muster/i,
  /0{6,}/,
];

export function isSample(value: string): boolean {
  return SAMPLE_MARKERS.some((marker) => marker.test(value));
}

/** The operator's details (keys of BRAND.operator) and what the imprint calls them. */
const OPERATOR_FIELDS = {
  name: 'company name',
  street: 'street address',
  city: 'postcode and city',
  register: 'register court and number',
  vatId: 'VAT ID',
  representative: 'representative (managing director)',
  email: 'contact e-mail',
  privacyEmail: 'data-protection e-mail',
} as const;

type Operator = Readonly<Record<keyof typeof OPERATOR_FIELDS, string>>;

type GuardInput = Pick<Config, 'BASE_URL' | 'SECURITY_CONTACT' | 'ALLOW_SAMPLE_DETAILS'>;

/** Every sample value still in place, one line each; empty when nothing is left to fill in. */
export function sampleDetails(securityContact: string, operator: Operator = BRAND.operator): string[] {
  const found = Object.entries(OPERATOR_FIELDS)
    .filter(([key]) => isSample(operator[key as keyof Operator]))
    .map(([key, what]) => `${what}: "${operator[key as keyof Operator]}" (api/contract/brand.ts, operator.${key})`);
  if (isSample(securityContact)) found.push(`security contact: "${securityContact}" (SECURITY_CONTACT)`);
  return found;
}

/** The refusal, or undefined when the guard lets this build or start through. */
export function productionGuardProblem(config: GuardInput, operator: Operator = BRAND.operator): string | undefined {
  if (!config.BASE_URL.startsWith('https://') || config.ALLOW_SAMPLE_DETAILS) return undefined;
  const samples = sampleDetails(config.SECURITY_CONTACT, operator);
  if (samples.length === 0) return undefined;
  return [
    `BASE_URL=${config.BASE_URL} is a public site, but the imprint and security.txt still show sample details:`,
    ...samples.map((line) => `  - ${line}`),
    'Fill them in (docs/deploy.md, "Before the first deploy"), or set ALLOW_SAMPLE_DETAILS=true for a staging site.',
  ].join('\n');
}

/** For entry points: print the refusal and exit 1. */
export function productionGuardOrExit(config: GuardInput): void {
  const problem = productionGuardProblem(config);
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}
