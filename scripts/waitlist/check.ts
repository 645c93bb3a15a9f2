/**
 * `npm run waitlist -- check` (docs/operator.md, "Before you open access"). Addresses go to stdout
 * only, and only those `--list` asks for.
 */
import { configOrExit } from '../../api/config.ts';
import { LANGS, type Lang } from '../../api/contract/index.ts';
import { createDomainCheck } from '../../api/deliverability/domain-check.ts';
import { VERDICTS, type Verdict } from '../../api/deliverability/verdict.ts';
import { EXIT, printJson, UsageError, type Subcommand } from '../cli.ts';
import { inOrder } from './in-order.ts';
import { progressBar } from './progress.ts';
import { withStore } from './store.ts';

/** Members checked at once: at most this many domains are looked up at a time. */
export const CHECKS_AHEAD = 32;

type Counts = Record<Verdict, number>;
const zero = (): Counts => ({ ok: 0, disposable: 0, no_mail: 0, unknown: 0 });

function table(counts: Counts, byLang: Record<Lang, Counts>): string {
  const row = (label: string, cells: (string | number)[]) => `${label.padEnd(12)}${cells.map((v) => String(v).padStart(8)).join('')}\n`;
  const rows = VERDICTS.map((verdict) => row(verdict, [counts[verdict], ...LANGS.map((lang) => byLang[lang][verdict])]));
  return row('verdict', ['members', ...LANGS]) + rows.join('');
}

export const check: Subcommand = {
  synopsis: 'check [--json] [--list VERDICT] [--lang en|de]',
  help: [
    'Sorts the members not yet invited by whether a message to them can arrive: ok, disposable (a throwaway',
    'domain), no_mail (DNS: no such domain, a null MX, or neither MX nor address) or unknown (the lookup',
    'failed). One DNS lookup per domain, through DNS_SERVERS or the system\'s resolvers.',
    '  --json           {"counts": {...}, "byLang": {...}} on one line',
    '  --list VERDICT   those members\' addresses, one per line, on stdout (for review, or for erase --from -)',
    '  --lang LANG      only members with this notification language',
  ].join('\n'),
  options: { json: { type: 'boolean' }, list: { type: 'string', choices: VERDICTS }, lang: { type: 'string', choices: LANGS } },
  async run({ values }) {
    if (values.json && values.list) throw new UsageError('--json and --list both write to stdout: give one of them');
    const verdictOf = createDomainCheck({ servers: configOrExit().DNS_SERVERS });
    const counts = zero();
    const byLang = Object.fromEntries(LANGS.map((lang) => [lang, zero()])) as Record<Lang, Counts>;
    await withStore('read', async ({ store }) => {
      const bar = progressBar(await store.count(), ' checked {bar} {value}/{total} | {eta_formatted} left');
      for await (const [record, verdict] of inOrder(store.export({ lang: values.lang as Lang | undefined }), CHECKS_AHEAD, async (record) => {
        bar?.increment();
        return record.invitation ? undefined : verdictOf(record.email);
      })) {
        if (verdict === undefined) continue;
        counts[verdict] += 1;
        byLang[record.lang][verdict] += 1;
        if (verdict === values.list) process.stdout.write(`${record.email}\n`);
      }
      bar?.stop();
    });
    if (values.json) printJson({ counts, byLang });
    else (values.list ? process.stderr : process.stdout).write(table(counts, byLang));
    return EXIT.ok;
  },
};
