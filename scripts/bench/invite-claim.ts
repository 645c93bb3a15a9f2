/**
 * `npm run bench -- invite-claim`: what one invite claim costs the JSON store's event loop (the
 * sidecar's, where sign-ups wait meanwhile) at the head of a long list and deep into it. A table of
 * --claim-records records (default 1,000,000); claims of 500 (an invite run's largest) at its head,
 * then with all but the last 100,000 members invited. The reference in the same run: a walk of
 * every record, what each claim cost when claims started at the first record. Target: a claim deep
 * into the list costs about what one at its head does (ratio ≤ 2), after the first claim following
 * a start, which walks the invited members once.
 */
import { claimIn } from '../../api/sidecar/store/json/invitations.ts';
import { RecordTable } from '../../api/sidecar/store/json/record-table.ts';
import type { InviteClaim } from '../../api/sidecar/domain/invitation.ts';
import { seedRecords } from './json-seed.ts';
import { numberOption, phase } from './progress.ts';
import { table } from './table.ts';

const RECORDS = numberOption('claim-records', 1_000_000);
const LEFT = Math.min(100_000, Math.floor(RECORDS / 10));
const CLAIM = 500;
const CLAIMS = 20;

const claim = (extra: Partial<InviteClaim> = {}): InviteClaim => ({ count: CLAIM, filter: {}, at: new Date().toISOString(), messageIdDomain: 'bench.example', ...extra });

/** Milliseconds of each of `n` claims in a row. */
function timed(n: number, run: () => unknown): number[] {
  return Array.from({ length: n }, () => {
    const started = performance.now();
    run();
    return performance.now() - started;
  });
}

const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

function main(): void {
  console.log(`Invite claims on the JSON store: ${RECORDS.toLocaleString('en')} records, claims of ${CLAIM}\n`);
  phase(`building ${RECORDS.toLocaleString('en')} records`);
  const records = seedRecords(RECORDS);
  const head = new RecordTable(records);
  phase(`${CLAIMS} claims at the head of the list`);
  const atHead = timed(CLAIMS, () => claimIn(head, claim()));

  phase(`${(RECORDS - LEFT).toLocaleString('en')} members invited, ${LEFT.toLocaleString('en')} left`);
  const invitation = { state: 'sent', claimedAt: new Date().toISOString(), invitedAt: new Date().toISOString(), messageId: '<bench@bench.example>' } as const;
  const deep = new RecordTable(records.map((record, i) => (i < RECORDS - LEFT ? { ...record, invitation } : record)));
  phase('the first claim after a start, then more');
  const [first, ...later] = timed(CLAIMS + 1, () => claimIn(deep, claim()));
  // Every record walked: what a claim cost when it started at the first record. A re-claim of old
  // claims (--resend-unconfirmed) still walks them all and claims none here.
  const walk = timed(5, () => claimIn(deep, claim({ claimedBefore: new Date(0).toISOString() })));
  const ms = (v: number) => v.toFixed(2);
  table(
    ['claim of 500', 'where', 'ms (median)', 'over the head'],
    [
      ['at the head', `of ${RECORDS.toLocaleString('en')}`, ms(median(atHead)), '1.00'],
      ['first after a start', `${(RECORDS - LEFT).toLocaleString('en')} in`, ms(first), (first / median(atHead)).toFixed(2)],
      ['the next ones (target ≤ 2)', `${(RECORDS - LEFT).toLocaleString('en')} in`, ms(median(later)), (median(later) / median(atHead)).toFixed(2)],
      ['a walk of every record', 'the reference', ms(median(walk)), (median(walk) / median(atHead)).toFixed(2)],
    ],
  );
}

if (process.argv.includes('--help')) {
  console.log('usage: node scripts/bench/invite-claim.ts [--claim-records=N]\nWhat one invite claim costs the JSON store at the head of a long list and deep into it.');
} else {
  main();
}
