/**
 * A sign-up the front has received but whose body is not sent yet: the request in flight the
 * shutdown tests send a signal during. Expect: 100-continue makes the front say when it has the
 * request (RFC 9110 §10.1.1); `finish()` sends the body and resolves with the status.
 */
import http from 'node:http';
import { API_PATHS } from '../../api/contract/index.ts';

export async function requestInFlight(base: string): Promise<{ finish(): Promise<number> }> {
  const url = new URL(base);
  const body = 'email=inflight%40example.org&consent=true';
  const req = http.request({
    host: url.hostname,
    port: url.port,
    method: 'POST',
    path: API_PATHS.waitlist,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length), expect: '100-continue' },
  });
  const accepted = new Promise<void>((resolve) => req.on('continue', resolve));
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
    req.on('error', reject);
  });
  req.flushHeaders();
  await accepted;
  return { finish: () => (req.end(body), answer) };
}
