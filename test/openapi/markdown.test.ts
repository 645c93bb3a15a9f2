import type { Code, Heading, Root, RootContent, Table } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { ROUTES, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, environmentUrls, requestSchema, type Route } from '../../api/contract/index.ts';
import { openApiMarkdown, openApiSections } from '../../api/docs/openapi-markdown.ts';
import { methodKey } from '../../api/docs/operations.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';

const BASE = 'https://waitlist.example.net';
const doc = buildOpenApiDocument(BASE);
const production = environmentUrls(BASE, 'production');
const sandbox = environmentUrls(BASE, 'sandbox');
const markdown = openApiMarkdown(doc, production.openapi);
const tree: Root = unified().use(remarkParse).use(remarkGfm).parse(markdown);

const textOf = (node: RootContent): string =>
  'value' in node ? String(node.value) : 'children' in node ? (node.children as RootContent[]).map(textOf).join('') : '';

/** The nodes from a heading to the next heading of the same or a higher level. */
function section(title: string, depth: number): RootContent[] {
  const start = tree.children.findIndex((n) => n.type === 'heading' && n.depth === depth && textOf(n).startsWith(title));
  if (start < 0) throw new Error(`no section ${title}`);
  const rest = tree.children.slice(start + 1);
  const end = rest.findIndex((n) => n.type === 'heading' && n.depth <= depth);
  return rest.slice(0, end < 0 ? undefined : end);
}

function sub(nodes: RootContent[], title: string): RootContent[] {
  const start = nodes.findIndex((n) => n.type === 'heading' && textOf(n) === title);
  if (start < 0) throw new Error(`no subsection ${title}`);
  const rest = nodes.slice(start + 1);
  const end = rest.findIndex((n) => n.type === 'heading');
  return rest.slice(0, end < 0 ? undefined : end);
}

const opTitle = (route: Route) => `${methodKey(route.methods).toUpperCase()} ${route.path}: ${route.summary}`;

describe('openapi Markdown twin', () => {
  it('has one H1, the document title, then the version and a link to the JSON document', () => {
    const h1 = tree.children.filter((n): n is Heading => n.type === 'heading' && n.depth === 1);
    expect(h1.map(textOf)).toEqual([doc.info.title]);
    expect(markdown).toContain(`API version ${doc.info.version}, OpenAPI ${doc.openapi}`);
    expect(markdown).toContain(`](${production.openapi})`);
  });

  it('names both servers and both token URLs, and the sandbox credentials', () => {
    expect(textOf({ type: 'root', children: section('Servers', 2) } as never)).toContain(sandbox.issuer);
    const auth = section('Authentication', 2).map(textOf).join('\n');
    expect(auth).toContain(production.token);
    expect(auth).toContain(sandbox.token);
    expect(auth).toContain(`client id and secret are both ${SANDBOX_CLIENT_ID}`);
  });

  it.each((ROUTES as readonly Route[]).map((r) => [r.id, r] as const))('%s: a section with method, path, auth, request fields, responses and a curl example', (_, route) => {
    const nodes = section(opTitle(route), 3);
    expect(nodes.map(textOf).join('\n')).toContain(`Operation ID: ${route.id}`);
    expect(sub(nodes, 'Authentication').length).toBeGreaterThan(0);
    const request = sub(nodes, 'Request fields');
    if (route.request) {
      const table = request.find((n): n is Table => n.type === 'table')!;
      const fields = table.children.slice(1).map((row) => textOf(row.children[0]!));
      expect(fields.length).toBeGreaterThan(0);
      expect(textOf(table.children[0]!)).toContain('Required');
    } else {
      expect(request.map(textOf)).toEqual(['No request body.']);
    }
    const responses = sub(nodes, 'Responses').find((n): n is Table => n.type === 'table')!;
    expect(responses.children.slice(1).map((row) => textOf(row.children[0]!))).toEqual(route.statuses.map(String));
    const example = sub(nodes, 'Example').find((n): n is Code => n.type === 'code')!;
    expect(example.lang).toBe('sh');
    expect(example.value).toMatch(/^curl /);
    expect(example.value).toContain(`'${sandbox.issuer}${route.path}'`);
    if (route.auth === 'client') expect(example.value).toContain(`-u '${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}'`);
    if (route.auth === 'bearer') expect(example.value).toContain('Authorization: Bearer $ACCESS_TOKEN');
  });

  it('marks the deprecated operation', () => {
    const legacy = (ROUTES as readonly Route[]).find((r) => r.deprecated)!;
    expect(section(opTitle(legacy), 3).map(textOf)[0]).toMatch(/^Deprecated\./);
  });

  it('tables are GFM tables (plain CommonMark sees none): servers, per operation (HEAD operations included) its responses and one per request body schema, one per schema', () => {
    const tables = tree.children.filter((n) => n.type === 'table');
    const heads = (ROUTES as readonly Route[]).filter((r) => r.methods.includes('HEAD')).length;
    const bodies = (ROUTES as readonly Route[]).reduce((n, r) => n + new Set(r.request?.mediaTypes.map((type) => requestSchema(r, type))).size, 0);
    const expected = 1 + ROUTES.length + heads + bodies + Object.keys(doc.components.schemas).length;
    expect(tables).toHaveLength(expected);
    expect(unified().use(remarkParse).parse(markdown).children.some((n) => n.type === 'table')).toBe(false);
  });

  it('the reference sections start at H2 and contain no H1 (the page layout writes the title)', () => {
    const nodes = openApiSections(doc, 2);
    expect(nodes.some((n) => n.type === 'heading' && n.depth === 1)).toBe(false);
    expect(nodes[0]).toMatchObject({ type: 'heading', depth: 2 });
  });
});
