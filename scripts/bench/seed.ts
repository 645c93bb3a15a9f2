/**
 * A waitlist of a given size, made the way an operator could: the JSON store's data file written
 * in its documented format (`{"format":"waitlist-store","version":1,"records":[…]}`, which the
 * sidecar validates on start), and PostgreSQL set up by the checkout's own
 * `npm run waitlist -- migrate`, so every table, index and counter is the checkout's.
 * First sign-ups are spread over 60 days, with every combination of answers. Addresses are
 * `seed<i>@example.com`, or with `domains` set `seed<i>@d<i % domains>.test` (`seedDomain`).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { BUILDING, CONSENT_TEXT_VERSION, LANGS, ROLES, SOURCES } from '../../api/contract/index.ts';
import { during, type Checkout } from './options.ts';
import type { Postgres } from './postgres.ts';
import { mustRun, productEnv } from './processes.ts';
import { count } from './table.ts';

const SPREAD_MS = 60 * 24 * 3600 * 1000;

/** Divisors of the record number: each question's answer (or none) varies on its own, every combination appears. */
const [BY_BUILDING, BY_SOURCE, BY_LANG] = [ROLES.length + 1, (ROLES.length + 1) * (BUILDING.length + 1), (ROLES.length + 1) * (BUILDING.length + 1) * (SOURCES.length + 1)];
const pick = <T>(values: readonly T[], i: number): T | undefined => values[i % (values.length + 1)];

/** The domain of the `i`th member: example.com, or one of `domains` under .test. */
export const seedDomain = (i: number, domains: number): string => (domains ? `d${i % domains}.test` : 'example.com');

function record(i: number, size: number, now: number, domains: number): object {
  const at = new Date(now - ((size - i) / size) * SPREAD_MS).toISOString();
  const lang = LANGS[Math.floor(i / BY_LANG) % LANGS.length];
  const source = pick(SOURCES, Math.floor(i / BY_SOURCE));
  return {
    email: `seed${i}@${seedDomain(i, domains)}`,
    createdAt: at,
    consentAt: at,
    updatedAt: at,
    lang,
    role: pick(ROLES, i),
    building: pick(BUILDING, Math.floor(i / BY_BUILDING)),
    source,
    consent: { form: source ?? 'api', channel: 'json', lang, textVersion: CONSENT_TEXT_VERSION },
  };
}

/** The JSON store's data file in `dataDir` with the first `to` records of a list of `size`. */
async function writeJsonStore(dataDir: string, size: number, to: number, domains: number): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = createWriteStream(path.join(dataDir, 'waitlist.json'));
  const now = Date.now();
  file.write('{"format":"waitlist-store","version":1,"records":[');
  for (let i = 0; i < to; i++) {
    const line = (i > 0 ? ',' : '') + JSON.stringify(record(i, size, now, domains));
    if (!file.write(line)) await once(file, 'drain');
  }
  file.end(']}\n');
  await finished(file);
}

/**
 * A bench's data for one store and checkout: the JSON store in `dataDir`, or a new database named
 * after `dataDir` on `postgres`. Resolves with the product's settings for it.
 */
export async function seedStore(store: 'json' | 'postgres', checkout: Checkout, postgres: Postgres | undefined, dataDir: string, size: number, domains = 0) {
  const settings: Record<string, string> = { DATA_DIR: dataDir };
  if (store === 'json') await during(`${checkout.label}: the JSON store at ${count(size)} records`, writeJsonStore(dataDir, size, size, domains));
  else {
    settings.DATABASE_URL = await postgres!.database(path.basename(dataDir).replaceAll('-', '_'));
    await fillPostgres(checkout, settings.DATABASE_URL, size, domains);
  }
  return settings;
}

/**
 * PostgreSQL at `url` with `size` records: the checkout's migrate command creates its schema from
 * a one-record file, the rest goes in with one INSERT … SELECT (no JSON file of a million records
 * to write and parse), and a second migrate of the same file leaves the checkout's derived data
 * (the statistics' counters) as after any bulk copy, which `waitlist stats --verify` checks.
 */
export async function fillPostgres(checkout: Checkout, url: string, size: number, domains = 0): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-seed-'));
  const migrate = () => mustRun(checkout, 'scripts/waitlist.ts', ['migrate', '--to', url], productEnv({ DATA_DIR: dataDir }));
  try {
    await writeJsonStore(dataDir, size, 1, domains);
    await during(`${checkout.label}: PostgreSQL schema through migrate`, migrate);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      // Row triggers off for the bulk insert (a superuser session, the bench's own engine): the
      // second migrate rebuilds the counters as after any bulk copy.
      await db.query("SET session_replication_role = 'replica'");
      await during(`${checkout.label}: PostgreSQL, ${size.toLocaleString('en-US')} records`, db.query(FILL_SQL, [size, CONSENT_TEXT_VERSION, SPREAD_MS, domains]));
      await db.query('VACUUM ANALYZE waitlist');
    } finally {
      await db.end();
    }
    await during(`${checkout.label}: PostgreSQL, migrate again`, migrate);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** An SQL array of the values and NULL (unanswered), picked by `i / by` as `pick` does. */
const sqlPick = (values: readonly string[], by = 1) => `(ARRAY[${values.map((v) => `'${v}'`).join(', ')}, NULL])[1 + i / ${by} % ${values.length + 1}]`;

/** Records 1 to $1 - 1 as `record` makes them (record 0 came through migrate). */
const FILL_SQL = `
INSERT INTO waitlist (email, created_at, consent_at, updated_at, lang, role, building, source,
                      consent_form, consent_channel, consent_lang, consent_text_version)
SELECT 'seed' || i || '@' || CASE WHEN $4 = 0 THEN 'example.com' ELSE 'd' || i % $4 || '.test' END, t, t, t, (ARRAY['${LANGS.join("', '")}'])[1 + i / ${BY_LANG} % ${LANGS.length}],
       ${sqlPick(ROLES)}, ${sqlPick(BUILDING, BY_BUILDING)}, ${sqlPick(SOURCES, BY_SOURCE)},
       coalesce(${sqlPick(SOURCES, BY_SOURCE)}, 'api'), 'json', (ARRAY['${LANGS.join("', '")}'])[1 + i / ${BY_LANG} % ${LANGS.length}], $2
FROM generate_series(1, $1 - 1) AS i,
     LATERAL (SELECT date_trunc('milliseconds', now() - (($1 - i)::float8 / $1) * $3 * interval '1 millisecond') AS t) AS times`;
