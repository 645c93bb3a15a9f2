/**
 * A real SMTP server for tests (smtp-server) on a free loopback port: every message that arrives
 * is kept raw and parsed (mailparser). Per recipient it can answer 4xx or 5xx, and it can drop
 * the connection and go away for good in the middle of a message, as a server that dies does.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

export interface Arrival {
  /** The envelope recipient. */
  to: string;
  raw: Buffer;
  parsed: ParsedMail;
}

/** What the server answers to RCPT TO: accept, or an SMTP error (e.g. 451 or 550). */
export type RcptAnswer = 'accept' | { code: number; message: string };

export interface SmtpOptions {
  /** Per recipient; called once per RCPT TO (count: how often this recipient was seen, from 1). */
  rcpt?(address: string, count: number): RcptAnswer;
  /** Drops the connection during the DATA of message number n (from 1, counting all DATA), then stops listening. */
  dieDuringMessage?: number;
  /** Offer STARTTLS (with smtp-server's built-in self-signed certificate). Default: no. */
  starttls?: boolean;
  /** From DATA number n on, the message is read and kept but never answered (a server that hangs). */
  holdFrom?: number;
  /** Answers each message this much later (a server that takes its time). */
  answerDelayMs?: number;
}

export interface SmtpHarness {
  port: number;
  /** smtp://127.0.0.1:PORT?starttls=off (loopback, no TLS). */
  url: string;
  arrivals: Arrival[];
  /** Resolves once `n` messages have arrived. */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtp(options: SmtpOptions = {}): Promise<SmtpHarness> {
  const arrivals: Arrival[] = [];
  const seen = new Map<string, number>();
  const waiters: { n: number; done: () => void }[] = [];
  let dataCount = 0;
  let listening = true;
  const server: SMTPServer = new SMTPServer({
    authOptional: true,
    disabledCommands: options.starttls ? [] : ['STARTTLS'],
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const count = (seen.get(address.address) ?? 0) + 1;
      seen.set(address.address, count);
      const answer = options.rcpt?.(address.address, count) ?? 'accept';
      if (answer === 'accept') return callback();
      const error = Object.assign(new Error(answer.message), { responseCode: answer.code });
      callback(error);
    },
    onData(stream, session, callback) {
      dataCount += 1;
      if (options.dieDuringMessage !== undefined && dataCount >= options.dieDuringMessage) {
        stream.resume();
        if (listening) {
          listening = false;
          server.server.close();
        }
        // The client has sent (part of) the message and never hears back.
        destroySocketOf(server, session.id);
        return;
      }
      const hold = options.holdFrom !== undefined && dataCount >= options.holdFrom;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const to = session.envelope.rcptTo.map((r) => r.address);
        for (const rcpt of to) arrivals.push({ to: rcpt, raw, parsed: await simpleParser(raw) });
        if (!hold) setTimeout(() => callback(), options.answerDelayMs ?? 0);
        for (const waiter of waiters.filter((w) => arrivals.length >= w.n)) waiter.done();
      });
    },
  });
  // A client killed or cut off in the middle of a message resets its connection (what several
  // tests do on purpose); smtp-server reports that as an 'error' event, which without a listener
  // would be an uncaught exception in the test process.
  server.on('error', () => {});
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}?starttls=off`,
    arrivals,
    waitFor: (n) => (arrivals.length >= n ? Promise.resolve() : new Promise((done) => waiters.push({ n, done }))),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** smtp-server keeps its connections in a Set; the one with this session id is cut without a word. */
function destroySocketOf(server: SMTPServer, sessionId: string): void {
  const connections = (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }).connections;
  for (const connection of connections) if (connection.id === sessionId) connection._socket.destroy();
}
