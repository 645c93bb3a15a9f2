/**
 * The request id: the front gives every request one, takes a proxy's
 * X-Request-Id only from a TRUST_PROXY peer, and passes its id (never the client's) to the sidecar.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { forwardHeaders } from '../../api/front/forward-headers.ts';
import { requestIdOf, requestTracker } from '../../api/front/log.ts';
import { listen, type Listening } from '../../api/front/server.ts';
import { trustedProxies } from '../../api/net/client-address.ts';
import { raw } from './client.ts';

/** A front stand-in that answers with the id it logged and the fields it would send the sidecar. */
async function echoFront(trustProxy: string[]): Promise<Listening> {
  const trusted = trustedProxies(trustProxy);
  const track = requestTracker({ trusted });
  return listen(
    (req, res) => {
      track(req, res, true);
      const fields = forwardHeaders(req, trusted);
      const sent = fields.flatMap((name, i) => (i % 2 === 0 && name.toLowerCase() === 'x-request-id' ? [fields[i + 1]] : []));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ logged: requestIdOf(req), sent }));
    },
    '127.0.0.1',
    0,
  );
}

let direct: Listening;
let behindProxy: Listening;
beforeAll(async () => {
  direct = await echoFront([]);
  behindProxy = await echoFront(['127.0.0.1']);
});
afterAll(async () => {
  await direct.close(100);
  await behindProxy.close(100);
});

const ask = async (front: Listening, headers: Record<string, string> = {}) => JSON.parse((await raw(front.url, '/api/v1/status', { headers })).text) as { logged: string; sent: string[] };

describe('request id', () => {
  test('request id: each request gets a new one, and the sidecar receives exactly that one', async () => {
    const [a, b] = [await ask(direct), await ask(direct)];
    expect(a.logged).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.sent).toEqual([a.logged]);
    expect(b.logged).not.toBe(a.logged);
  });

  test("request id: an untrusted client's X-Request-Id is neither logged nor forwarded", async () => {
    const answer = await ask(direct, { 'x-request-id': 'chosen-by-client' });
    expect(answer.logged).not.toBe('chosen-by-client');
    expect(answer.sent).toEqual([answer.logged]);
  });

  test("request id: a TRUST_PROXY peer's X-Request-Id is used and forwarded; an unusable one is replaced", async () => {
    expect(await ask(behindProxy, { 'x-request-id': 'nginx-7f3a' })).toEqual({ logged: 'nginx-7f3a', sent: ['nginx-7f3a'] });
    const spaced = await ask(behindProxy, { 'x-request-id': 'two words' });
    expect(spaced.logged).toMatch(/^[0-9a-f-]{36}$/);
    expect(spaced.sent).toEqual([spaced.logged]);
  });
});
