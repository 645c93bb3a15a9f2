/**
 * What an agent-readiness scan reads first, through the real front: the MCP server card against
 * its pinned schema, the Agent Skills index with digests of the files it serves, robots.txt naming
 * the AI crawlers, and the catalog and llms.txt pointing to them.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, inject, it } from 'vitest';
import { ENVIRONMENTS, MCP_PROTOCOL_VERSIONS, environmentUrls } from '../../api/contract/index.ts';

const stack = inject('stack');
const urls = environmentUrls(stack.baseUrl, 'production');

async function fetchOk(url: string): Promise<Response> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return response;
}

describe('MCP server card', () => {
  it('is served as JSON and valid against the pinned SEP-2127 schema', async () => {
    const schema = JSON.parse(await readFile(new URL('../support/schemas/mcp-server-card.schema.json', import.meta.url), 'utf8'));
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const response = await fetchOk(urls.mcpServerCard);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const card = await response.json();
    const validate = ajv.compile(schema);
    expect(validate(card), JSON.stringify(validate.errors)).toBe(true);
  });

  it('lists both remotes, production and sandbox, with the protocol versions the endpoint serves', async () => {
    const card = (await (await fetchOk(urls.mcpServerCard)).json()) as { remotes: { type: string; url: string; supportedProtocolVersions: string[] }[] };
    expect(card.remotes.map((remote) => remote.url)).toEqual(ENVIRONMENTS.map((env) => environmentUrls(stack.baseUrl, env).mcp));
    for (const remote of card.remotes) {
      expect(remote.type).toBe('streamable-http');
      expect(remote.supportedProtocolVersions).toEqual([...MCP_PROTOCOL_VERSIONS]);
    }
  });

  it('the API catalog and llms.txt point to it', async () => {
    const catalog = JSON.stringify(await (await fetchOk(urls.apiCatalog)).json());
    expect(catalog).toContain(urls.mcpServerCard);
    const llms = await (await fetchOk(urls.llms)).text();
    expect(llms).toContain(`(${urls.mcpServerCard})`);
    expect(llms).toContain(`(${urls.agentSkills})`);
  });
});

describe('Agent Skills index', () => {
  it('v0.2.0: $schema and skills of type skill-md, each digest the sha256 of the file served at its url', async () => {
    const index = (await (await fetchOk(urls.agentSkills)).json()) as {
      $schema: string;
      skills: { name: string; type: string; description: string; url: string; digest: string }[];
    };
    expect(index.$schema).toMatch(/agentskills\.io\/discovery\/0\.2\.0\//);
    expect(index.skills.length).toBeGreaterThan(0);
    for (const skill of index.skills) {
      expect(skill.type).toBe('skill-md');
      expect(skill.description.length).toBeGreaterThan(20);
      const file = await fetchOk(skill.url);
      expect(file.headers.get('content-type')).toMatch(/^text\/markdown/);
      const bytes = new Uint8Array(await file.arrayBuffer());
      expect(skill.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      const text = new TextDecoder().decode(bytes);
      expect(text).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: `));
      expect(text).not.toMatch(/\{[a-z_]+\}/);
    }
  });
});

describe('robots.txt', () => {
  it('names the major AI crawlers, and every named group has the same Content Signals and rules as *', async () => {
    const robots = await (await fetchOk(`${stack.baseUrl}/robots.txt`)).text();
    const groups = robots.split(/\n(?=User-agent: )/);
    const rulesOf = (agent: string) => groups.find((group) => group.startsWith(`User-agent: ${agent}\n`))?.split('\n').slice(1).filter((line) => /^[A-Z]/.test(line) && !line.startsWith('Sitemap:'));
    const star = rulesOf('*');
    expect(star).toContainEqual(expect.stringMatching(/^Content-Signal: /));
    const named = groups.map((group) => /^User-agent: (.+)$/m.exec(group)?.[1]).filter((agent) => agent && agent !== '*');
    expect(named).toEqual(expect.arrayContaining(['GPTBot', 'ClaudeBot', 'Google-Extended', 'PerplexityBot', 'CCBot']));
    for (const crawler of named) expect(rulesOf(crawler!), crawler).toEqual(star);
  });
});
