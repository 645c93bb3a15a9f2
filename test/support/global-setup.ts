/**
 * Global setup of the whole run: the services test files share, each started once, when the first
 * file asks for it (services.ts: need(name)), and stopped after the last file. A run of files that
 * need none starts none.
 * - `site`: the site built once for a free port P, so every absolute URL it publishes points at
 *   the stack below; the site tests read it, and stacks of their own serve it.
 * - `stack`: the real stack (npm start: front + sidecar child) on P serving that site, handed out
 *   as inject('stack') ({baseUrl, dataDir, distDir}); the e2e project waits for it (stack-ready.ts).
 * - `postgres`, `redis`: one throwaway server each (initdb alone takes seconds on a busy machine);
 *   files work in databases of their own on them (engines/shared.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startPostgres } from './engines/postgres.ts';
import { startRedis } from './engines/redis.ts';
import type { Service, SharedEngineInfo } from './services.ts';
import { buildSiteFor, forgetBuild, freePort, startStack, type RunningStack } from './stack.ts';

interface Started {
  /** What every file that asks receives. */
  answer(): unknown;
  /** Stops the service; rejects when it did not stop cleanly. */
  stop(): Promise<void>;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const distDir = await mkdtemp(path.join(tmpdir(), 'e2e-dist-'));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'e2e-data-'));
  project.provide('stack', { baseUrl, dataDir, distDir });

  let redisDatabases = 0;
  const starters: Record<Service, () => Promise<Started>> = {
    async site() {
      await buildSiteFor(distDir, baseUrl);
      return { answer: () => ({ distDir, baseUrl }), stop: async () => {} };
    },
    async stack() {
      await start('site');
      const stack: RunningStack = await startStack({ port, distDir, dataDir });
      return {
        answer: () => ({ baseUrl, dataDir, distDir }),
        async stop() {
          const code = await stack.stop();
          if (code !== 0) throw new Error(`the stack exited with code ${code} on SIGTERM:\n${stack.output()}`);
        },
      };
    },
    async postgres() {
      // Two workers' files at once, each with pools of its own (a stack's sidecar keeps up to 20).
      const engine = await startPostgres({ settings: { max_connections: '400' } });
      const info: SharedEngineInfo = { port: Number(new URL(engine.url).port), pid: engine.pid };
      return { answer: () => info, stop: () => engine.stop() };
    },
    async redis() {
      // Files share it through database numbers of their own; 256 is more than a run needs.
      const engine = await startRedis(['--databases', '256']);
      return { answer: (): SharedEngineInfo => ({ port: engine.port, pid: engine.pid, database: ++redisDatabases }), stop: () => engine.stop() };
    },
  };
  const started = new Map<Service, Promise<Started>>();
  const start = (name: Service): Promise<Started> => {
    if (!started.has(name)) started.set(name, starters[name]());
    return started.get(name)!;
  };

  const server = http.createServer((req, res) => {
    const name = (req.url ?? '').slice(1) as Service;
    if (!Object.hasOwn(starters, name)) return void res.writeHead(404).end(`no service called ${name}`);
    // A start that failed fails every file that asks, with the same message.
    start(name).then(
      (service) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(service.answer())),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  project.provide('services', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);

  return async () => {
    server.close();
    // The stack first: its sidecar may still hold connections to an engine.
    const stops = [started.get('stack')].concat([...started].filter(([name]) => name !== 'stack').map(([, service]) => service));
    const failures: unknown[] = [];
    for (const service of stops) {
      if (!service) continue;
      await service.then((s) => s.stop(), () => undefined).catch((error: unknown) => failures.push(error));
    }
    await Promise.all([rm(distDir, { recursive: true, force: true }), rm(dataDir, { recursive: true, force: true }), forgetBuild(distDir)]);
    if (failures.length) throw failures[0];
  };
}
