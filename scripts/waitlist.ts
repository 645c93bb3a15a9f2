/**
 * Operator command for the waitlist (`npm run waitlist -- --help`, docs/operator.md), on whichever
 * engine the configuration selects, while the service runs (api/sidecar/operator/access.ts).
 * Addresses from the data go to stdout only, and only where a command is asked for them (export,
 * show, check --list, invite --json); messages echo only what the operator typed.
 */
import { resolve } from 'node:path';
import { configOrExit } from '../api/config.ts';
import { LANGS, type Lang } from '../api/contract/index.ts';
import { normaliseEmail } from '../api/sidecar/domain/email.ts';
import { EXPORT_FORMATS, exportHeader, exportLine, type ExportFormat } from '../api/sidecar/domain/record-export.ts';
import { EXIT, main, printJson, timeOption, UsageError, write, type Program } from './cli.ts';
import { check } from './waitlist/check.ts';
import { eraseList } from './waitlist/erase-list.ts';
import { invite } from './waitlist/invite.ts';
import { report } from './waitlist/report.ts';
import { statsCommand } from './waitlist/stats.ts';
import { withStore } from './waitlist/store.ts';

/** Lines gathered per write to stdout. */
const LINES_PER_WRITE = 1000;

const program: Program = {
  name: 'npm run waitlist --',
  summary: 'The waitlist records, for the operator. Works while the service runs.',
  footer: [
    'Every command takes --help. An address that starts with "-" goes after "--": erase -- -a@example.com',
    'Exit codes: 0 done, 1 error, 2 usage, 3 no record of that address.',
    'Engine: PostgreSQL when DATABASE_URL is set, else the JSON file in DATA_DIR.',
  ].join('\n'),
  commands: {
    stats: statsCommand,
    export: {
      synopsis: 'export [--format jsonl|csv] [--lang en|de] [--since DATE]',
      help: [
        'Every record (or those matching the filters), every field, in sign-up order, to stdout.',
        '  --format jsonl   one JSON record per line, exactly as stored (default)',
        '  --format csv     RFC 4180 with a header; cells that a spreadsheet would run as a formula get a leading \'',
        '  --lang LANG      only records with this notification language',
        '  --since DATE     only records first signed up at or after DATE (UTC), e.g. 2026-11-01',
      ].join('\n'),
      options: { format: { type: 'string', choices: EXPORT_FORMATS }, lang: { type: 'string', choices: LANGS }, since: { type: 'string' } },
      async run({ values }) {
        const format = (values.format ?? 'jsonl') as ExportFormat;
        const since = typeof values.since === 'string' ? new Date(timeOption('since', values.since)).toISOString() : undefined;
        await withStore('read', async ({ store }) => {
          let lines = [exportHeader(format)];
          for await (const record of store.export({ lang: values.lang as Lang | undefined, since })) {
            lines.push(exportLine(format, record));
            if (lines.length < LINES_PER_WRITE) continue;
            await write(lines.join(''));
            lines = [];
          }
          await write(lines.join(''));
        });
        return EXIT.ok;
      },
    },
    count: {
      synopsis: 'count [--json]',
      help: 'The number of records.\n  --json   {"count": N}',
      options: { json: { type: 'boolean' } },
      async run({ values }) {
        const count = await withStore('read', ({ store }) => store.count());
        if (values.json) printJson({ count });
        else console.log(count);
        return EXIT.ok;
      },
    },
    show: {
      synopsis: 'show [--json] EMAIL',
      help: [
        "One person's record as JSON (GDPR Art. 15), found the way the API normalises addresses.",
        '  --json   the record on one line (default: indented)',
      ].join('\n'),
      options: { json: { type: 'boolean' } },
      args: ['EMAIL'],
      async run({ values, positionals: [typed] }) {
        const email = normaliseEmail(typed);
        const record = await withStore('read', ({ store }) => store.show(email));
        if (!record) {
          console.error(`No record of ${JSON.stringify(typed)} (looked up as ${email}).`);
          return EXIT.notFound;
        }
        process.stdout.write(`${JSON.stringify(record, null, values.json ? undefined : 2)}\n`);
        return EXIT.ok;
      },
    },
    erase: {
      synopsis: 'erase EMAIL | erase --from FILE|- [--yes]',
      help: [
        "Removes one person's record (GDPR Art. 17), durably, while the service runs.",
        '  --from FILE   every address of FILE instead (one a line; blank lines and # comments ignored); - reads stdin',
        '  --yes         erase a list without asking (required when there is no terminal to ask on)',
      ].join('\n'),
      options: { from: { type: 'string' }, yes: { type: 'boolean' } },
      args: ['[EMAIL]'],
      async run({ values, positionals: [typed] }) {
        if (typeof values.from === 'string') {
          if (typed !== undefined) throw new UsageError('give EMAIL or --from FILE, not both');
          return eraseList(values.from, values.yes === true);
        }
        if (typed === undefined) throw new UsageError('missing EMAIL (or --from FILE)');
        const email = normaliseEmail(typed);
        const lookedUp = `${JSON.stringify(typed)} (looked up as ${email})`;
        return withStore('write', async ({ store, where }) => {
          if (!(await store.erase(email))) {
            console.log(`No record of ${lookedUp}. Nothing was changed.`);
            return EXIT.notFound;
          }
          console.log(`Erased the record of ${lookedUp}. ${where} no longer holds it; backups still do until they are rotated.`);
          return EXIT.ok;
        });
      },
    },
    check,
    report,
    invite,
    migrate: {
      synopsis: 'migrate --to URL [--json]',
      help: [
        "Copies DATA_DIR's JSON waitlist, OAuth clients and generated token keys into PostgreSQL in one",
        'transaction and prints the counts it compared. Safe to run again: an address already in the',
        'database is merged with it (the newer consent wins, answers are kept, nothing newer is undone); clients',
        'and keys already there are kept. Stop the JSON service first, or run it again after the switch.',
        '  --to URL   the database, e.g. "$DATABASE_URL" (postgres://user:password@host:5432/database)',
        '  --json     the compared counts as one JSON document',
      ].join('\n'),
      options: { to: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }) {
        const url = typeof values.to === 'string' ? values.to : '';
        if (!/^postgres(ql)?:\/\/./.test(url)) {
          process.stderr.write('error: --to must be a PostgreSQL URL such as postgres://user:password@host:5432/database (see --help)\n');
          return EXIT.usage;
        }
        // Loaded only here: the driver is never imported without a database to talk to.
        const { migrateDataDir, reportLines } = await import('../api/sidecar/store/postgres/migrate.ts');
        const report = await migrateDataDir(resolve(configOrExit().DATA_DIR), url, (line) => console.error(line));
        if (values.json) printJson(report);
        else for (const line of reportLines(report)) console.log(line);
        return EXIT.ok;
      },
    },
  },
};

main(program, 'waitlist');
