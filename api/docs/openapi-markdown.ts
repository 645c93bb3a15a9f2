/**
 * The Markdown twin of the OpenAPI document (/openapi.json.md) and the body of the API reference
 * page, built from the document object as an mdast tree and stringified with remark + GFM.
 */
import type { RootContent } from 'mdast';
import { curlCommand } from './curl.ts';
import { code, codeBlock, heading, link, list, paragraph, parseInline, parseMarkdown, strong, stringifyMarkdown, table, type Inline } from './markdown.ts';
import type { JsonSchema } from './json-schemas.ts';
import type { OpenApiDocument } from './openapi.ts';
import type { OperationObject, SecurityRequirement } from './operations.ts';
import { fieldRows, refName } from './schema-fields.ts';

function fieldTable(doc: OpenApiDocument, schema: JsonSchema) {
  return table(['Field', 'Type', 'Required', 'Rules', 'Description'], fieldRows(doc, schema));
}

function requirementText(doc: OpenApiDocument, requirement: SecurityRequirement): Inline[] {
  const names = Object.keys(requirement);
  if (names.length === 0) return ['No Authorization header: ', code('client_id'), ' and ', code('client_secret'), ' in the form body (client_secret_post).'];
  return names.flatMap((name) => {
    const scheme = doc.components.securitySchemes[name];
    if (!scheme) throw new Error(`undefined security scheme ${name}`);
    if (scheme.type === 'oauth2') {
      const scopes = requirement[name] ?? [];
      return ['Bearer access token', ...(scopes.length ? [' with scope ', code(scopes.join(' '))] : []), ' from ', code(scheme.flows.clientCredentials.tokenUrl), ` (${name}).`];
    }
    return ['HTTP Basic with the client id and secret (client_secret_basic).'];
  });
}

/** Names as code spans between separators: `a`, `b`. */
function codes(names: string[], separator: string): Inline[] {
  return names.flatMap((name, i) => (i === 0 ? [code(name)] : [separator, code(name)]));
}

function operationSection(doc: OpenApiDocument, depth: number, method: string, path: string, op: OperationObject): RootContent[] {
  const nodes: RootContent[] = [heading(depth, code(`${method.toUpperCase()} ${path}`), `: ${op.summary}`)];
  if (op.deprecated) nodes.push(paragraph(strong('Deprecated.'), ' It keeps working and answers with a ', code('Deprecation'), ' header.'));
  nodes.push(...parseMarkdown(op.description).children);
  nodes.push(list([['Operation ID: ', code(op.operationId)], ['Tag: ', op.tags.join(', ')]]));
  const authentication = op.security.length === 0 ? [['None.']] : op.security.map((requirement) => requirementText(doc, requirement));
  nodes.push(heading(depth + 1, 'Authentication'), list(authentication));
  nodes.push(heading(depth + 1, 'Request fields'));
  const body = op.requestBody;
  if (!body) {
    nodes.push(paragraph('No request body.'));
  } else {
    // One table per distinct schema, naming the media types that use it.
    const bySchema = new Map<string, { schema: JsonSchema; types: string[] }>();
    for (const [type, media] of Object.entries(body.content)) {
      const key = refName(media.schema) ?? JSON.stringify(media.schema);
      bySchema.set(key, { schema: media.schema, types: [...(bySchema.get(key)?.types ?? []), type] });
    }
    nodes.push(paragraph(...parseInline(body.description ?? '')));
    for (const { schema, types } of bySchema.values()) {
      nodes.push(paragraph('Body: ', ...codes(types, ' or '), ', schema ', code(refName(schema) ?? 'inline'), '.'));
      nodes.push(fieldTable(doc, schema));
    }
  }
  nodes.push(heading(depth + 1, 'Responses'));
  const rows = Object.entries(op.responses).map(([status, response]) => {
    const schema = Object.values(response.content ?? {})[0]?.schema;
    const name = refName(schema);
    return [[code(status)], parseInline(response.description), name ? [code(name)] : ['none'], codes(Object.keys(response.headers ?? {}), ', ')];
  });
  nodes.push(table(['Status', 'Meaning', 'Body', 'Headers'], rows));
  // The example runs against the sandbox server: it needs no credentials of your own.
  const sandbox = doc.servers.find((server) => server.description === 'Sandbox')!.url;
  nodes.push(heading(depth + 1, 'Example'), codeBlock('sh', curlCommand(sandbox, method, path, op)));
  return nodes;
}

/** Everything below the title: servers, authentication, one section per operation, schemas. */
export function openApiSections(doc: OpenApiDocument, depth = 2): RootContent[] {
  const nodes: RootContent[] = [heading(depth, 'Servers')];
  nodes.push(
    paragraph('Every path below exists on both servers.'),
    table(['Server', 'URL'], doc.servers.map((server) => [[server.description], [code(server.url)]])),
  );
  nodes.push(heading(depth, 'Authentication'));
  for (const [name, scheme] of Object.entries(doc.components.securitySchemes)) {
    nodes.push(heading(depth + 1, code(name)), ...parseMarkdown(scheme.description).children);
    if (scheme.type === 'oauth2') {
      const flow = scheme.flows.clientCredentials;
      nodes.push(list([['Token URL: ', code(flow.tokenUrl)], ['Scopes: ', ...Object.keys(flow.scopes).map((s) => code(s))]]));
    }
  }
  nodes.push(heading(depth, 'Operations'));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op) nodes.push(...operationSection(doc, depth + 1, method, path, op));
  }
  nodes.push(heading(depth, 'Schemas'));
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    nodes.push(heading(depth + 1, code(name)), fieldTable(doc, schema));
  }
  return nodes;
}

/** The whole twin: title, version line, description, then the sections. */
export function openApiMarkdown(doc: OpenApiDocument, documentUrl: string): string {
  return stringifyMarkdown([
    heading(1, doc.info.title),
    paragraph(`API version ${doc.info.version}, OpenAPI ${doc.openapi}. Machine-readable: `, link(documentUrl, code(documentUrl)), '.'),
    ...parseMarkdown(doc.info.description).children,
    ...openApiSections(doc, 2),
  ]);
}
