/** Serves an app on an ephemeral 127.0.0.1 port, for tests that need a real socket. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler, type H3 } from 'h3';

export interface Served {
  url: string;
  close(): Promise<void>;
}

export async function serveApp(app: H3): Promise<Served> {
  const server: Server = createServer(toNodeHandler(app));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
