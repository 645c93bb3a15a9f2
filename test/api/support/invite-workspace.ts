/**
 * One invite test's own DATA_DIR, the members seeded into it and the SMTP servers it starts, all
 * gone after the test. Each test has its own, so the invite tests share nothing and run side by side.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import type { WaitlistRecord } from '../../../api/sidecar/domain/record.ts';
import { JsonWaitlistStore, STORE_FILE_NAME } from '../../../api/sidecar/store/json/waitlist-store.ts';
import { startSmtp, type SmtpHarness } from '../../support/smtp.ts';
import { seedMembers } from './invite.ts';

export interface InviteWorkspace {
  dir: string;
  /** n members in sign-up order (see seedMembers); their addresses. */
  seed(n: number): Promise<string[]>;
  /** The records as the JSON store holds them on disk. */
  records(): Promise<WaitlistRecord[]>;
  /** An SMTP server closed after the test. */
  smtpServer(options?: Parameters<typeof startSmtp>[0]): Promise<SmtpHarness>;
}

/** `it` with a fresh workspace as `ws`; `prefix` names its temp directory. */
export function inviteTest(prefix: string) {
  return it.extend<{ ws: InviteWorkspace }>({
    ws: async ({}, use) => {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      const servers: SmtpHarness[] = [];
      await use({
        dir,
        async seed(n) {
          const store = await JsonWaitlistStore.open(dir);
          try {
            return await seedMembers(store, n);
          } finally {
            await store.close();
          }
        },
        records: async () => JSON.parse(await readFile(join(dir, STORE_FILE_NAME), 'utf8')).records,
        async smtpServer(options = {}) {
          const server = await startSmtp(options);
          servers.push(server);
          return server;
        },
      });
      for (const server of servers) await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  });
}
