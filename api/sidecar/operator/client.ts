/** The operator command's end of the channel (protocol.ts): the running sidecar's store, a request per call. */
import { request, type IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { json } from 'node:stream/consumers';
import type { WaitlistRecord } from '../domain/record.ts';
import type { ExportFilter, InvitationStore, OperatorStore } from '../store/waitlist-store.ts';
import { CALLS, type Call } from './protocol.ts';

/** Longest silence of the sidecar within one request (an erase waits for a commit of the whole file). */
const IDLE_TIMEOUT_MS = 30_000;

/** The calls whose arguments and result cross the channel as they are. */
type Plain = Exclude<Call, 'membersPerDomain'>;

export interface SidecarChannel extends Pick<OperatorStore & InvitationStore, Plain> {}

export class SidecarChannel implements OperatorStore, InvitationStore {
  readonly socketPath: string;

  constructor(socketPath: string) {
    this.socketPath = socketPath;
    for (const method of CALLS) {
      if (method !== 'membersPerDomain') Object.defineProperty(this, method, { value: (...args: unknown[]) => this.#call(method, args) });
    }
  }

  /** Whether a sidecar answers on the socket (false for a leftover socket file or none). */
  async reachable(): Promise<boolean> {
    return this.count().then(() => true, (error: NodeJS.ErrnoException) => {
      if (['ENOENT', 'ECONNREFUSED', 'ENOTSOCK'].includes(error.code ?? '')) return false;
      throw error;
    });
  }

  /** A Map crosses as its entries. */
  async membersPerDomain(): Promise<Map<string, number>> {
    return new Map((await this.#call('membersPerDomain', [])) as [string, number][]);
  }

  async *export(filter: ExportFilter = {}): AsyncGenerator<WaitlistRecord> {
    const res = await this.#send('export', [filter]);
    if (res.statusCode !== 200) throw new Error(`operator channel: export answered ${res.statusCode}`);
    for await (const line of createInterface({ input: res, crlfDelay: Infinity })) {
      if (line) yield JSON.parse(line) as WaitlistRecord;
    }
  }

  async close(): Promise<void> {}

  /** The call's result; any status but 200 is the sidecar's failure, never data. */
  async #call(method: Call, args: unknown[]): Promise<unknown> {
    const res = await this.#send(method, args);
    const body = (await json(res)) as { result: unknown };
    if (res.statusCode !== 200) throw new Error(`operator channel: ${method} answered ${res.statusCode}`);
    return body.result;
  }

  #send(method: string, args: unknown[]): Promise<IncomingMessage> {
    return new Promise((done, fail) => {
      // A connection per call, never kept alive: a command stopped longer than the sidecar keeps an
      // idle connection (Ctrl-Z, a suspended laptop) would write its next call on one the sidecar
      // has closed (EPIPE) when its timers fire before the close is read. A local connect costs
      // little beside a call, and a run makes a few a second.
      const req = request({ socketPath: this.socketPath, method: 'POST', path: `/${method}`, headers: { 'content-type': 'application/json' }, agent: false }, done);
      req.on('error', fail);
      // A sidecar that accepts but never answers (stopped in a debugger, say) must not hang the command.
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`operator channel: the sidecar did not answer within ${IDLE_TIMEOUT_MS / 1000} s`)));
      req.end(JSON.stringify(args));
    });
  }
}
