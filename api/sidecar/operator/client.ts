/**
 * The operator command's end of the channel (protocol.ts): the running sidecar's store, seen as
 * an OperatorStore. Every call is one request over DATA_DIR/operator.sock.
 */
import { request, type IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { json } from 'node:stream/consumers';
import type { WaitlistStats } from '../../contract/index.ts';
import type { DayRange, DaySeries } from '../domain/day-series.ts';
import type { WaitlistRecord } from '../domain/record.ts';
import { failureText, type InviteClaim, type InviteFilter } from '../domain/invitation.ts';
import type { ExportFilter, InvitationStore, OperatorStore } from '../store/waitlist-store.ts';

/** Longest silence of the sidecar within one request (an erase waits for a commit of the whole file). */
const IDLE_TIMEOUT_MS = 30_000;

export class SidecarChannel implements OperatorStore, InvitationStore {
  readonly socketPath: string;

  constructor(socketPath: string) {
    this.socketPath = socketPath;
  }

  /** Whether a sidecar answers on the socket (false for a leftover socket file or none). */
  async reachable(): Promise<boolean> {
    return this.count().then(() => true, (error: NodeJS.ErrnoException) => {
      if (['ENOENT', 'ECONNREFUSED', 'ENOTSOCK'].includes(error.code ?? '')) return false;
      throw error;
    });
  }

  async count(): Promise<number> {
    return ((await this.#json('GET', '/count')) as { count: number }).count;
  }

  async stats(now: number): Promise<WaitlistStats> {
    return (await this.#json('GET', `/stats?now=${now}`)) as WaitlistStats;
  }

  async signupsPerDay(range: DayRange): Promise<DaySeries> {
    return (await this.#json('GET', `/series?${new URLSearchParams({ since: range.since, until: range.until })}`)) as DaySeries;
  }

  async show(email: string): Promise<WaitlistRecord | undefined> {
    const res = await this.#send('POST', '/show', { email });
    if (res.statusCode === 404) {
      res.resume();
      return undefined;
    }
    return (await this.#read(res, 'POST /show')) as WaitlistRecord;
  }

  async erase(email: string): Promise<boolean> {
    return (await this.eraseMany([email]))[0];
  }

  async eraseMany(emails: string[]): Promise<boolean[]> {
    return ((await this.#json('POST', '/erase', { emails })) as { erased: boolean[] }).erased;
  }

  async membersPerDomain(): Promise<Map<string, number>> {
    return new Map(((await this.#json('GET', '/domains')) as { domains: [string, number][] }).domains);
  }

  async *export(filter: ExportFilter = {}): AsyncGenerator<WaitlistRecord> {
    const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== undefined));
    const res = await this.#send('GET', `/export?${query}`);
    if (res.statusCode !== 200) throw new Error(`operator channel: export answered ${res.statusCode}`);
    for await (const line of createInterface({ input: res, crlfDelay: Infinity })) {
      if (line) yield JSON.parse(line) as WaitlistRecord;
    }
  }

  async claimInvitees(claim: InviteClaim): Promise<WaitlistRecord[]> {
    return ((await this.#json('POST', '/invite/claim', claim)) as { records: WaitlistRecord[] }).records;
  }

  async confirmInvitation(email: string, messageId: string, at: string): Promise<boolean> {
    return ((await this.#json('POST', '/invite/confirm', { email, messageId, at })) as { done: boolean }).done;
  }

  async failInvitation(email: string, messageId: string, reply: string): Promise<boolean> {
    return ((await this.#json('POST', '/invite/fail', { email, messageId, reply: failureText(reply) })) as { done: boolean }).done;
  }

  async releaseInvitation(email: string, messageId: string): Promise<boolean> {
    return ((await this.#json('POST', '/invite/release', { email, messageId })) as { done: boolean }).done;
  }

  async unconfirmedInvitations(filter: InviteFilter = {}): Promise<WaitlistRecord[]> {
    return ((await this.#json('POST', '/invite/unconfirmed', { filter })) as { records: WaitlistRecord[] }).records;
  }

  async close(): Promise<void> {}

  async #json(method: string, path: string, body?: unknown): Promise<unknown> {
    return this.#read(await this.#send(method, path, body), `${method} ${path.split('?')[0]}`);
  }

  /** The answer's JSON body; any status but 200 is the sidecar's failure, not data. */
  async #read(res: IncomingMessage, call: string): Promise<unknown> {
    const parsed = await json(res);
    if (res.statusCode !== 200) throw new Error(`operator channel: ${call} answered ${res.statusCode}`);
    return parsed;
  }

  #send(method: string, path: string, body?: unknown): Promise<IncomingMessage> {
    return new Promise((done, fail) => {
      // A connection per call, never kept alive: a command stopped longer than the sidecar keeps an
      // idle connection (Ctrl-Z, a suspended laptop) would write its next call on one the sidecar
      // has closed (EPIPE) when its timers fire before the close is read. A local connect costs
      // little beside a call, and a run makes a few a second.
      const req = request({ socketPath: this.socketPath, method, path, headers: { 'content-type': 'application/json' }, agent: false }, done);
      req.on('error', fail);
      // A sidecar that accepts but never answers (stopped in a debugger, say) must not hang the command.
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`operator channel: the sidecar did not answer within ${IDLE_TIMEOUT_MS / 1000} s`)));
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }
}
