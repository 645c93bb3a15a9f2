/** MAX_CONNECTIONS_PER_CLIENT (api/front/server.ts), in-process with a stand-in handler. */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { listen, type Listening } from '../../api/front/server.ts';
import { trustedProxies } from '../../api/net/client-address.ts';

let front: Listening;
let port: number;
beforeAll(async () => {
  const config = loadConfig({ MAX_CONNECTIONS_PER_CLIENT: '2', TRUST_PROXY: '127.0.0.30' });
  const trusted = trustedProxies(config.TRUST_PROXY);
  front = await listen((_req, res) => res.end('ok'), '127.0.0.1', 0, { perClient: { max: config.MAX_CONNECTIONS_PER_CLIENT, trusted, ipv6PrefixBits: config.RATE_LIMIT_IPV6_PREFIX } });
  port = Number(new URL(front.url).port);
});
afterAll(() => front.close(500));

/** Connects; resolves 'open' if the front still holds the socket after a request was answered, 'closed' if it was dropped unanswered. */
function connect(from: string): Promise<{ socket: net.Socket; state: 'open' | 'closed' }> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: from });
    socket.on('error', () => {});
    socket.once('close', () => resolve({ socket, state: 'closed' }));
    socket.once('data', () => resolve({ socket, state: 'open' }));
    socket.on('connect', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
  });
}

describe('connection cap per client address', () => {
  test('cap: the connection over the allowance is closed unanswered; another address is not affected; a closed one frees its place', async () => {
    const held = await Promise.all([connect('127.0.0.20'), connect('127.0.0.20')]);
    expect(held.map((c) => c.state)).toEqual(['open', 'open']);
    expect((await connect('127.0.0.20')).state).toBe('closed');
    const other = await connect('127.0.0.21');
    expect(other.state).toBe('open');
    const gone = new Promise((resolve) => held[0].socket.once('close', resolve));
    held[0].socket.destroy();
    await gone;
    // The front sees the close a moment later than the client.
    let again = await connect('127.0.0.20');
    for (let i = 0; again.state === 'closed' && i < 20; i++) again = await connect('127.0.0.20');
    expect(again.state).toBe('open');
    for (const c of [...held, other, again]) c.socket.destroy();
  });

  test('cap: a trusted proxy (TRUST_PROXY) carries many clients and is not capped', async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => connect('127.0.0.30')));
    expect(all.map((c) => c.state)).toEqual(Array(5).fill('open'));
    for (const c of all) c.socket.destroy();
  });
});
