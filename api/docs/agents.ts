/**
 * Discovery documents for agents, pure functions of a base URL: the MCP server card (SEP-2127)
 * naming both remotes, and the Agent Skills discovery index (v0.2.0) with each skill's digest.
 */
import { createHash } from 'node:crypto';
import { API_DESCRIPTION_VERSION, ENVIRONMENTS, MCP_PROTOCOL_VERSIONS, environmentUrls } from '../contract/index.ts';
import { BRAND } from '../contract/brand.ts';

export function mcpServerCard(baseUrl: string) {
  const production = environmentUrls(baseUrl, 'production');
  // The card's `name` is reverse-DNS of the site's host: waitlist.example.org -> org.example.waitlist.
  const reverseDns = new URL(baseUrl).hostname.split('.').reverse().join('.');
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: `${reverseDns}/waitlist`,
    version: API_DESCRIPTION_VERSION,
    title: `${BRAND.product} waitlist`,
    description: `Join the ${BRAND.productLong} early-access waitlist, check the service and read aggregate statistics. The sandbox stores nothing.`,
    websiteUrl: production.guide,
    remotes: ENVIRONMENTS.map((env) => ({
      type: 'streamable-http',
      url: environmentUrls(baseUrl, env).mcp,
      supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
      // Only waitlist_stats needs a token: OAuth 2.0 client credentials, resource = this URL (RFC 8707).
      authentication: { required: false, schemes: ['bearer', 'oauth2'] },
    })),
    capabilities: { tools: {}, resources: {} },
  };
}

/** `bytes`: the SKILL.md file exactly as served. */
export function agentSkillsIndex(baseUrl: string, skill: { name: string; description: string; bytes: Uint8Array }) {
  const digest = `sha256:${createHash('sha256').update(skill.bytes).digest('hex')}`;
  const url = environmentUrls(baseUrl, 'production').skill;
  return {
    $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
    skills: [{ name: skill.name, type: 'skill-md', description: skill.description, url, digest }],
  };
}
