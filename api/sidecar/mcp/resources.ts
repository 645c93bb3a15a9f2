/**
 * The MCP resources: every page's Markdown twin (both languages), the OpenAPI document and
 * llms.txt, read from the site build (DIST_DIR), never from the network. Their URIs are the
 * public URLs the front serves them at.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { DISCOVERY_PATHS } from '../../contract/index.ts';
import type { RouteContext } from '../deps.ts';

const MIME_TYPES: Record<string, string> = { '.md': 'text/markdown', '.json': 'application/json', '.txt': 'text/plain' };
const DOCUMENTS = [DISCOVERY_PATHS.openapi, DISCOVERY_PATHS.llms].map((file) => file.slice(1));

/** Files of the build that are resources, relative to it with '/' separators. */
async function resourceFiles(distDir: string): Promise<string[]> {
  const all = await readdir(distDir, { recursive: true }).catch(() => [] as string[]);
  const twins = all.map((file) => file.split(path.sep).join('/')).filter((file) => file.endsWith('.md') && !file.startsWith('.well-known/'));
  return [...twins.sort(), ...DOCUMENTS.filter((file) => all.includes(file))];
}

export async function registerResources(server: McpServer, { deps }: RouteContext): Promise<void> {
  const { DIST_DIR, BASE_URL } = deps.config;
  for (const file of await resourceFiles(DIST_DIR)) {
    const mimeType = MIME_TYPES[path.extname(file)]!;
    server.registerResource(file, `${BASE_URL}/${file}`, { mimeType }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType, text: await readFile(path.join(DIST_DIR, file), 'utf8') }],
    }));
  }
}
