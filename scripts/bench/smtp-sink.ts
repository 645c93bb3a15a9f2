/**
 * The invitations benchmark's mail server (scripts/bench/invite.ts), in a process of its own so it
 * takes no CPU from the load generator: a real SMTP server (smtp-server) on a free loopback port
 * that accepts every message and throws it away. Reports its port over IPC, then the count on 'count'.
 */
import { SMTPServer } from 'smtp-server';

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('end', () => {
      received += 1;
      callback();
    });
    stream.resume();
  },
});
server.listen(0, '127.0.0.1', () => process.send?.({ type: 'ready', port: (server.server.address() as { port: number }).port }));
process.on('message', (message) => {
  if (message === 'count') process.send?.({ type: 'count', received });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
