/**
 * The waitlist in PostgreSQL, shared by any number of instances (docs/api.md, "PostgreSQL"). A
 * sign-up is ONE upsert merging as domain/record.ts mergeSignup does (test/api/postgres-store.test.ts
 * holds the two equal); the row lock serialises concurrent sign-ups of one address.
 */
import type pg from 'pg';
import { DEFAULT_LANG, type WaitlistSignup, type WaitlistStats } from '../../../contract/index.ts';
import { consentEvidence, type Channel, type WaitlistRecord } from '../../domain/record.ts';
import { emptyCounts, statsOf, tally, windowStarts, type FieldCounts } from '../../domain/stats.ts';
import type { CommitInfo, ExportFilter, WaitlistStore } from '../waitlist-store.ts';
import type { DayRange, DaySeries } from '../../domain/day-series.ts';
import { RECORD_COLUMNS, recordFromRow } from './record-row.ts';
import { STATS_FIELDS } from './stats-schema.ts';
import type { Guard } from './engine-watch.ts';
import { failureText, type InviteClaim, type InviteFilter } from '../../domain/invitation.ts';

/**
 * mergeSignup's rules; created_at is the earlier of the two, as with concurrent instances the first
 * to commit need not be the first to arrive. $3 (the sign-up's lang) is NULL when it named none; a
 * new row then takes $9, the consent language (the sign-up's or DEFAULT_LANG).
 */
const UPSERT_SQL = `
INSERT INTO waitlist AS w (email, created_at, consent_at, updated_at, lang, role, building, source,
                           consent_form, consent_channel, consent_lang, consent_text_version)
VALUES ($1, $2, $2, $2, $9, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (email) DO UPDATE SET
  created_at = least(w.created_at, EXCLUDED.created_at),
  consent_at = EXCLUDED.consent_at,
  updated_at = EXCLUDED.updated_at,
  lang = coalesce($3::text, w.lang),
  role = coalesce(EXCLUDED.role, w.role),
  building = coalesce(EXCLUDED.building, w.building),
  source = coalesce(EXCLUDED.source, w.source),
  consent_form = EXCLUDED.consent_form,
  consent_channel = EXCLUDED.consent_channel,
  consent_lang = EXCLUDED.consent_lang,
  consent_text_version = EXCLUDED.consent_text_version`;

/** The statistics from stats-schema.ts's counters in ONE statement, so the numbers agree; $1, $2: windowStarts (domain/stats.ts). */
const STATS_SQL = `
SELECT field, value, sum(n)::bigint AS n FROM stats_answers GROUP BY 1, 2
UNION ALL SELECT 'last7Days', NULL, stats_after($1)
UNION ALL SELECT 'last30Days', NULL, stats_after($2)`;

/**
 * First sign-ups per UTC day (domain/day-series.ts is the definition): rows grouped by day and
 * answers (at most 216 a day, never a record), summed in signupsPerDay into each question's series.
 * One plain hash aggregate: GROUPING SETS per question would sort the range's rows once per question.
 * $1 = since, $2 = until. The count before the range is the row whose day is NULL.
 */
const DAY_SERIES_SQL = `
SELECT day::text AS day, lang, role, building, source, count(*) AS n
FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, lang, role, building, source
      FROM waitlist WHERE created_at >= $1 AND created_at < $2) AS range
GROUP BY day, lang, role, building, source
UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, count(*) FROM waitlist WHERE created_at < $1`;

/** Rows fetched per round trip of an export. */
const EXPORT_BATCH = 1000;

/** `AND …` conditions of an invitation (or export) filter, numbering parameters after those already in `params`. */
function filterSql(filter: InviteFilter, params: unknown[]): string {
  let sql = '';
  for (const column of ['lang', 'role', 'building', 'source'] as const) {
    if (filter[column] !== undefined) sql += ` AND ${column} = $${params.push(filter[column])}`;
  }
  return sql;
}

export class PostgresWaitlistStore implements WaitlistStore {
  readonly #pool: pg.Pool;
  readonly #guard: Guard;
  #commits = 0;
  readonly #onCommit: ((info: CommitInfo) => void) | undefined;
  /** The last statistics query started, and the one that calls made meanwhile wait for. */
  #statsLast: Promise<unknown> = Promise.resolve();
  #statsNext: { now: number; answer: Promise<WaitlistStats> } | undefined;

  /** `guard`: what a call does when the engine is away (engine-watch.ts); by default nothing. */
  constructor(pool: pg.Pool, options: { guard?: Guard; onCommit?(info: CommitInfo): void } = {}) {
    this.#pool = pool;
    this.#guard = options.guard ?? ((work) => work());
    this.#onCommit = options.onCommit;
  }

  async upsert(signup: WaitlistSignup, channel: Channel, at: string): Promise<void> {
    const started = performance.now();
    const consent = consentEvidence(signup.source, channel, signup.lang ?? DEFAULT_LANG);
    const values = [signup.email, at, signup.lang ?? null, signup.role ?? null, signup.building ?? null, signup.source ?? null];
    values.push(consent.form, consent.channel, consent.lang, consent.textVersion);
    // A named query: parsed and planned once per connection, not per sign-up.
    await this.#guard(() => this.#pool.query({ name: 'waitlist-upsert', text: UPSERT_SQL, values }));
    this.#commits += 1;
    this.#onCommit?.({ durationMs: performance.now() - started });
  }

  /** A durable commit that changes no table, so a discarded sign-up waits as a stored one: a WAL message makes COMMIT flush, `SELECT 1` would not. */
  async sync(): Promise<void> {
    await this.#guard(() => this.#pool.query("SELECT pg_logical_emit_message(true, 'waitlist-sync', '')"));
    this.#commits += 1;
  }

  /** Statements completed by upsert and sync (each its own commit); for tests, like the JSON store's. */
  get commits(): number {
    return this.#commits;
  }

  /**
   * Exact and uncached (stats-schema.ts). One query at a time (docs/performance.md): calls that come
   * while one runs share the next, which starts after all of them came (so it holds every write
   * acknowledged before any of them) and answers for the latest of their times.
   */
  stats(now: number): Promise<WaitlistStats> {
    if (this.#statsNext) {
      this.#statsNext.now = Math.max(this.#statsNext.now, now);
      return this.#statsNext.answer;
    }
    const next = { now } as { now: number; answer: Promise<WaitlistStats> };
    const start = () => {
      this.#statsNext = undefined;
      return this.#guard(() => this.#readStats(next.now));
    };
    next.answer = this.#statsLast.then(start, start);
    this.#statsLast = next.answer;
    this.#statsNext = next;
    return next.answer;
  }

  async #readStats(now: number): Promise<WaitlistStats> {
    const { since7, since30 } = windowStarts(now);
    const values = [new Date(since7), new Date(since30)];
    const { rows } = await this.#pool.query<{ field: string; value: string | null; n: string }>({ name: 'waitlist-stats', text: STATS_SQL, values });
    const counts = emptyCounts();
    const windows = { last7Days: 0, last30Days: 0 };
    for (const { field, value, n } of rows) {
      if (field === 'last7Days' || field === 'last30Days') windows[field] = Number(n);
      else {
        // Every record has a language: the total is their sum.
        if (field === 'lang') counts.total += Number(n);
        const group = counts[STATS_FIELDS[field as keyof typeof STATS_FIELDS]];
        // Only the contract's values are ever stored (the API validates them); anything else is not a count it answers.
        if (value !== null && Object.hasOwn(group, value)) group[value] = Number(n);
      }
    }
    return statsOf(counts, windows.last7Days, windows.last30Days, now);
  }

  /** The total of the counters (every record has a language): exact, and as cheap at any size. */
  async count(): Promise<number> {
    const { rows } = await this.#guard(() => this.#pool.query<{ n: string }>("SELECT coalesce(sum(n), 0) AS n FROM stats_answers WHERE field = 'lang'"));
    return Number(rows[0].n);
  }

  /** One grouped query (DAY_SERIES_SQL): rows per day and answer, never records. */
  async signupsPerDay(range: DayRange): Promise<DaySeries> {
    const values = [range.since, range.until];
    type Row = Record<'day' | 'lang' | 'role' | 'building' | 'source', string | null> & { n: string };
    const { rows } = await this.#guard(() => this.#pool.query<Row>({ name: 'waitlist-day-series', text: DAY_SERIES_SQL, values }));
    let before = 0;
    const byDay = new Map<string, FieldCounts>();
    for (const row of rows) {
      if (row.day === null) {
        before = Number(row.n);
        continue;
      }
      let counts = byDay.get(row.day);
      if (!counts) byDay.set(row.day, (counts = emptyCounts()));
      tally(counts, { ...row, lang: row.lang! }, Number(row.n));
    }
    const days = [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, counts]) => ({ day, counts }));
    return { before, days };
  }

  async show(email: string): Promise<WaitlistRecord | undefined> {
    const { rows } = await this.#guard(() => this.#pool.query(`SELECT ${RECORD_COLUMNS} FROM waitlist WHERE email = $1`, [email]));
    return rows[0] ? recordFromRow(rows[0]) : undefined;
  }

  async erase(email: string): Promise<boolean> {
    return (await this.eraseMany([email]))[0];
  }

  async eraseMany(emails: string[]): Promise<boolean[]> {
    const { rows } = await this.#guard(() => this.#pool.query<{ email: string }>('DELETE FROM waitlist WHERE email = ANY($1) RETURNING email', [emails]));
    const erased = new Set(rows.map((row) => row.email));
    return emails.map((email) => erased.has(email));
  }

  /** One grouped scan: a row per domain, never a record. */
  async membersPerDomain(): Promise<Map<string, number>> {
    const { rows } = await this.#guard(() => this.#pool.query<{ domain: string; n: string }>("SELECT split_part(email, '@', 2) AS domain, count(*) AS n FROM waitlist GROUP BY 1"));
    return new Map(rows.map((row) => [row.domain, Number(row.n)]));
  }

  /** The records in first-sign-up order through a server-side cursor in one read-only snapshot: memory stays flat at any size. */
  async *export(filter: ExportFilter = {}): AsyncIterable<WaitlistRecord> {
    const params: unknown[] = [];
    let where = filterSql({ lang: filter.lang }, params);
    if (filter.since) where += ` AND created_at >= $${params.push(filter.since)}`;
    const client = await this.#guard(() => this.#pool.connect());
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(`DECLARE export_cursor NO SCROLL CURSOR FOR SELECT ${RECORD_COLUMNS} FROM waitlist WHERE true${where} ORDER BY created_at, email`, params);
      for (;;) {
        const { rows } = await client.query(`FETCH ${EXPORT_BATCH} FROM export_cursor`);
        for (const row of rows) yield recordFromRow(row);
        if (rows.length < EXPORT_BATCH) break;
      }
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      // Also reached when the consumer stops early. The transaction only read: ROLLBACK ends it (and
      // its cursor) as COMMIT would.
      if (!broken) await client.query('ROLLBACK').catch((error: Error) => (broken = error));
      // A connection that failed is closed rather than handed to the next caller.
      client.release(broken);
    }
  }

  /** The invitation steps (domain/invitation.ts), safe on any number of hosts: a claim skips rows another run holds (FOR UPDATE SKIP LOCKED). */
  async claimInvitees(claim: InviteClaim): Promise<WaitlistRecord[]> {
    const params: unknown[] = [claim.at, claim.messageIdDomain, claim.count];
    let which = claim.claimedBefore === undefined ? 'invite_state IS NULL' : `invite_state = 'claimed' AND invite_claimed_at < $${params.push(claim.claimedBefore)}`;
    if (claim.except?.length) which += ` AND email <> ALL($${params.push(claim.except)})`;
    const { rows } = await this.#guard(() =>
      this.#pool.query(
        // RETURNING keeps no order: the claimed rows are sorted after the UPDATE.
        `WITH claimed AS (
           UPDATE waitlist SET invite_state = 'claimed', invite_claimed_at = $1, invited_at = NULL, invite_error = NULL,
                  invite_message_id = '<' || gen_random_uuid() || '@' || $2 || '>'
           WHERE email IN (SELECT email FROM waitlist WHERE ${which}${filterSql(claim.filter, params)}
                           ORDER BY created_at, email LIMIT $3 FOR UPDATE SKIP LOCKED)
           RETURNING ${RECORD_COLUMNS})
         SELECT * FROM claimed ORDER BY created_at, email`,
        params,
      ),
    );
    return rows.map(recordFromRow);
  }

  confirmInvitation(email: string, messageId: string, at: string): Promise<boolean> {
    return this.#settle(email, messageId, "invite_state = 'sent', invited_at = $3", [at]);
  }

  failInvitation(email: string, messageId: string, reply: string): Promise<boolean> {
    return this.#settle(email, messageId, "invite_state = 'failed', invite_error = $3", [failureText(reply)]);
  }

  releaseInvitation(email: string, messageId: string): Promise<boolean> {
    return this.#settle(email, messageId, 'invite_state = NULL, invite_claimed_at = NULL, invite_message_id = NULL', []);
  }

  async unconfirmedInvitations(filter: InviteFilter = {}): Promise<WaitlistRecord[]> {
    const params: unknown[] = [];
    const sql = `SELECT ${RECORD_COLUMNS} FROM waitlist WHERE invite_state = 'claimed'${filterSql(filter, params)} ORDER BY created_at, email`;
    const { rows } = await this.#guard(() => this.#pool.query(sql, params));
    return rows.map(recordFromRow);
  }

  async #settle(email: string, messageId: string, set: string, values: unknown[]): Promise<boolean> {
    const sql = `UPDATE waitlist SET ${set} WHERE email = $1 AND invite_message_id = $2 AND invite_state = 'claimed'`;
    const { rowCount } = await this.#guard(() => this.#pool.query(sql, [email, messageId, ...values]));
    return (rowCount ?? 0) > 0;
  }

  /** The pool belongs to the backend, which ends it: afterwards every call fails. */
  async close(): Promise<void> {}
}
