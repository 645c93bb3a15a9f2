/** A front on an ephemeral port, serving a fixture dist/, with a stand-in for the sidecar. */
import type http from 'node:http';
import { createFrontHandler } from '../../api/front/app.ts';
import { requestLine, requestTracker } from '../../api/front/log.ts';
import { listen, type Listening } from '../../api/front/server.ts';
import { loadSite } from '../../api/front/static.ts';
import { BASE, createFixture, type Fixture } from './fixture.ts';

export interface Harness {
  url: string;
  fixture: Fixture;
  logs: string[];
  proxied: string[];
  close(): Promise<void>;
}

export async function startStaticFront(): Promise<Harness> {
  const fixture = await createFixture();
  const site = await loadSite(fixture.dist, BASE);
  const logs: string[] = [];
  const proxied: string[] = [];
  const proxy = (req: http.IncomingMessage, res: http.ServerResponse) => {
    proxied.push(req.url ?? '');
    res.writeHead(299, ['Content-Type', 'application/json']).end('{"proxied":true}');
  };
  let clock = 0;
  const front: Listening = await listen(
    createFrontHandler({ site, proxy, track: requestTracker({ trusted: () => false, onFinish: (r) => logs.push(requestLine(r.method, r.target, r.status, r.ms)), now: () => (clock += 1.5) }) }),
    '127.0.0.1',
    0,
  );
  return {
    url: front.url,
    fixture,
    logs,
    proxied,
    close: async () => {
      await front.close(1_000);
      await fixture.cleanup();
    },
  };
}
