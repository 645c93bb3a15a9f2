/**
 * The JSON backend (store/json/backend.ts) and its operator channel (operator/), in process on a
 * temp DATA_DIR: the start-up line and size warning, the socket's mode and lifetime, and the store
 * reached through the channel behaving like the store itself.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SidecarChannel } from '../../api/sidecar/operator/client.ts';
import { operatorSocketPath } from '../../api/sidecar/operator/protocol.ts';
import type { Backend } from '../../api/sidecar/store/backend.ts';
import { openBackend } from '../../api/sidecar/store/open-backend.ts';
import { COMFORTABLE_RECORDS, openJsonBackend } from '../../api/sidecar/store/json/backend.ts';
import { testConfig } from './support/harness.ts';

let dir: string;
const open: Backend[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'json-backend-'));
});
afterEach(async () => {
  for (const backend of open.splice(0)) await backend.close();
  await rm(dir, { recursive: true, force: true });
});

async function backend(options: Parameters<typeof openJsonBackend>[1] = {}, comfortable?: number): Promise<Backend> {
  const opened = await openJsonBackend(testConfig({ DATA_DIR: dir }), options, comfortable);
  open.push(opened);
  return opened;
}

const at = '2026-11-20T10:00:00.000Z';
const signup = (email: string) => ({ email, consent: true as const });

describe('JSON backend', () => {
  it('backend: without DATABASE_URL the JSON engine is chosen; describe() names the file and the record count', async () => {
    const opened = await openBackend(testConfig({ DATA_DIR: dir }));
    open.push(opened);
    expect(opened.engine).toBe('json');
    await opened.store.upsert(signup('a@example.com'), 'json', at);
    expect(await opened.describe()).toBe(`store: JSON file ${join(dir, 'waitlist.json')}, 1 records`);
  });

  it('backend: the comfortable size is the envelope, 100,000 records', () => {
    expect(COMFORTABLE_RECORDS).toBe(100_000);
  });

  it('backend: more records than the comfortable size -> one warning line at open pointing to PostgreSQL; none below it', async () => {
    const first = await backend();
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await first.store.upsert(signup(email), 'json', at);
    await open.pop()!.close();
    const lines: string[] = [];
    await backend({ warn: (line) => lines.push(line) }, 3);
    expect(lines).toEqual([]);
    await open.pop()!.close();
    await backend({ warn: (line) => lines.push(line) }, 2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('3 records, more than the 2');
    expect(lines[0]).toContain('move to PostgreSQL');
    expect(lines[0]).toContain('npm run waitlist -- migrate --to "$DATABASE_URL"');
    expect(lines[0]).not.toContain('\n');
  });

  it('operator socket: served only when asked, mode 0600, a leftover socket file replaced, removed at close', async () => {
    const path = operatorSocketPath(dir);
    await backend();
    await expect(stat(path)).rejects.toThrow();
    await open.pop()!.close();
    await writeFile(path, 'leftover of a crashed run');
    const served = await backend({ serveOperator: true });
    expect((await stat(path)).isSocket()).toBe(true);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await served.close();
    open.pop();
    await expect(stat(path)).rejects.toThrow();
    expect(await new SidecarChannel(path).reachable()).toBe(false);
  });

  it('operator channel: count, show, stats, export with filters and erase answer as the store itself does', async () => {
    const served = await backend({ serveOperator: true });
    await served.store.upsert({ ...signup('a@example.com'), lang: 'de', role: 'data' }, 'json', at);
    await served.store.upsert(signup('b@example.com'), 'form', '2026-11-21T10:00:00.000Z');
    const channel = new SidecarChannel(operatorSocketPath(dir));
    expect(await channel.reachable()).toBe(true);
    expect(await channel.count()).toBe(2);
    expect(await channel.show('a@example.com')).toEqual(await served.store.show('a@example.com'));
    expect(await channel.show('nobody@example.com')).toBeUndefined();
    const now = Date.parse('2026-11-22T00:00:00.000Z');
    expect(await channel.stats(now)).toEqual(await served.store.stats(now));
    const emails = async (filter = {}) => {
      const seen = [];
      for await (const record of channel.export(filter)) seen.push(record.email);
      return seen;
    };
    expect(await emails()).toEqual(['a@example.com', 'b@example.com']);
    expect(await emails({ lang: 'de' })).toEqual(['a@example.com']);
    expect(await emails({ since: '2026-11-21T00:00:00.000Z' })).toEqual(['b@example.com']);
    expect(await channel.membersPerDomain()).toEqual(new Map([['example.com', 2]]));
    expect(await channel.erase('a@example.com')).toBe(true);
    expect(await channel.erase('a@example.com')).toBe(false);
    expect(await served.store.count()).toBe(1);
  });

  it('operator channel: a confirmation changes only the claim it names; a malformed call is refused, never read as a record', async () => {
    const served = await backend({ serveOperator: true });
    await served.store.upsert(signup('a@example.com'), 'json', at);
    const channel = new SidecarChannel(operatorSocketPath(dir));
    const [a] = await channel.claimInvitees({ count: 1, filter: {}, at, messageIdDomain: 'example.org' });
    expect(await channel.confirmInvitation(a.email, '<other@example.org>', at)).toBe(false);
    expect(await channel.confirmInvitation(a.email, a.invitation!.messageId, at)).toBe(true);
    expect((await served.store.show(a.email))!.invitation).toMatchObject({ state: 'sent', invitedAt: at });
    await expect(channel.confirmInvitation(a.email, a.invitation!.messageId, 'yesterday')).rejects.toThrow('answered 400');
    await expect(channel.show('')).rejects.toThrow('answered 400');
  });

  it('operator channel: a command stopped longer than the sidecar keeps an idle connection (Ctrl-Z, then fg) goes on with its next call', { timeout: 20_000 }, async () => {
    await backend({ serveOperator: true });
    const client = new URL('../../api/sidecar/operator/client.ts', import.meta.url).href;
    // The second call is due before the first one's connection could go back idle: after the stop,
    // its timer fires before anything that socket did meanwhile is read.
    const script = `import { SidecarChannel } from ${JSON.stringify(client)};
const channel = new SidecarChannel(${JSON.stringify(operatorSocketPath(dir))});
setTimeout(() => channel.count().then(() => process.send('second answered'), (error) => process.send('second failed: ' + error.message)), 100);
await channel.count();
process.send('first answered');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const messages: string[] = [];
    const next = () => new Promise<string>((done) => child.once('message', (message) => done(String(message))));
    try {
      messages.push(await next());
      child.kill('SIGSTOP');
      // Longer than node:http keeps an idle connection open (keepAliveTimeout, 5 s, and its 1 s buffer).
      await new Promise((done) => setTimeout(done, 7_000));
      const answer = next();
      child.kill('SIGCONT');
      messages.push(await answer);
    } finally {
      child.kill('SIGKILL');
    }
    expect(messages).toEqual(['first answered', 'second answered']);
  });

  it('operator channel: a large erasure of non-ASCII addresses erases each of them (a character split between chunks stays whole)', async () => {
    const served = await backend({ serveOperator: true });
    const emails = Array.from({ length: 3000 }, (_, i) => `x${'ö'.repeat(20)}${i}@example.com`);
    await Promise.all(emails.map((email) => served.store.upsert(signup(email), 'json', at)));
    const channel = new SidecarChannel(operatorSocketPath(dir));
    expect((await channel.eraseMany(emails)).every(Boolean)).toBe(true);
    expect(await served.store.count()).toBe(0);
  });

  it('operator channel: an export of more records than one batch streams every record once, in order', async () => {
    const served = await backend({ serveOperator: true });
    const emails = Array.from({ length: 2500 }, (_, i) => `p${i}@example.com`);
    await Promise.all(emails.map((email) => served.store.upsert(signup(email), 'json', at)));
    const seen = [];
    for await (const record of new SidecarChannel(operatorSocketPath(dir)).export()) seen.push(record.email);
    expect(seen).toEqual(emails);
  });
});
