import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  API_DESCRIPTION_VERSION,
  ENVIRONMENTS,
  ERROR_STATUS,
  ErrorBody,
  OAuthErrorBody,
  OPENAPI_VERSION,
  ROUTES,
  STATS_SCOPE,
  environmentUrls,
  requestSchema,
  type ErrorCode,
  type Route,
} from '../../api/contract/index.ts';
import { methodKey } from '../../api/docs/operations.ts';
import { buildOpenApiDocument } from '../../api/docs/openapi.ts';
import type { HeaderObject } from '../../api/docs/headers.ts';
import type { Ref } from '../../api/docs/json-schemas.ts';
import type { OperationObject } from '../../api/docs/operations.ts';
import { BRAND } from '../../api/contract/brand.ts';
import { schemaErrors } from '../support/openapi.ts';

const BASE = 'https://waitlist.example.net';
const doc = buildOpenApiDocument(BASE);
const routes = ROUTES as readonly Route[];

function operationOf(route: Route): OperationObject {
  const op = doc.paths[route.path]?.[methodKey(route.methods)];
  if (!op) throw new Error(`${route.id} missing`);
  return op;
}

function headerRef(op: OperationObject, status: number, name: string): string | undefined {
  const header = op.responses[String(status)]?.headers?.[name] as Ref | HeaderObject | undefined;
  return header && '$ref' in header ? header.$ref : undefined;
}

function schemaNameOf(op: OperationObject, status: number): string | undefined {
  const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
  return typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
}

function idOf(schema: z.ZodType): string {
  return z.globalRegistry.get(schema)!.id!;
}

describe('openapi document: info and servers', () => {
  it('openapi is 3.1.0 and info.version is the API description version 1.1.0', () => {
    expect(doc.openapi).toBe(OPENAPI_VERSION);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(API_DESCRIPTION_VERSION);
  });

  it('info has title, description, contact and a license with a url (redocly info-license-strict)', () => {
    expect(doc.info.title).toContain(BRAND.product);
    expect(doc.info.description.length).toBeGreaterThan(100);
    expect(doc.info.contact).toMatchObject({ name: BRAND.operator.name, email: BRAND.operator.email });
    expect(doc.info.license).toEqual({ name: BRAND.license.name, url: BRAND.license.url });
  });

  it('servers: production is the base URL, sandbox is base + /sandbox, so one set of paths serves both', () => {
    expect(doc.servers.map((s) => s.url)).toEqual([BASE, `${BASE}/sandbox`]);
    expect(doc.servers.map((s) => s.description)).toEqual(['Production', 'Sandbox']);
  });

  it('the document depends only on the base URL (two builds are identical)', () => {
    expect(JSON.stringify(buildOpenApiDocument(BASE))).toBe(JSON.stringify(doc));
    expect(JSON.stringify(buildOpenApiDocument('https://other.example.net'))).not.toContain(BASE);
  });
});

describe('openapi document: security schemes', () => {
  it.each(ENVIRONMENTS)('%s: an oauth2 client-credentials scheme with the absolute token URL and the stats scope', (env) => {
    const scheme = Object.values(doc.components.securitySchemes).find(
      (s) => s.type === 'oauth2' && s.flows.clientCredentials.tokenUrl === environmentUrls(BASE, env).token,
    );
    expect(scheme).toBeDefined();
    expect(scheme?.type === 'oauth2' && Object.keys(scheme.flows.clientCredentials.scopes)).toEqual([STATS_SCOPE]);
  });

  it('the statistics operation accepts a token from either scheme, with scope waitlist:stats:read', () => {
    const stats = routes.filter((r) => r.auth === 'bearer');
    expect(stats.length).toBeGreaterThan(0);
    for (const route of stats) {
      const security = operationOf(route).security;
      expect(security).toHaveLength(2);
      for (const requirement of security) expect(Object.values(requirement)).toEqual([[STATS_SCOPE]]);
      const schemes = security.map((r) => doc.components.securitySchemes[Object.keys(r)[0]!]?.type);
      expect(schemes).toEqual(['oauth2', 'oauth2']);
    }
  });

  it('public operations have security [] and the token endpoint names HTTP Basic or body credentials', () => {
    for (const route of routes) {
      const security = operationOf(route).security;
      if (route.auth === 'none') expect(security).toEqual([]);
      if (route.auth === 'client') {
        const basic = Object.keys(security[0]!)[0]!;
        expect(doc.components.securitySchemes[basic]).toMatchObject({ type: 'http', scheme: 'basic' });
        expect(security[1]).toEqual({});
      }
    }
  });
});

describe('openapi document: operations', () => {
  it('every route of the contract is an operation with operationId, summary, description and a declared tag', () => {
    const declared = new Set(doc.tags.map((t) => t.name));
    for (const route of routes) {
      const op = operationOf(route);
      expect(op.operationId).toBe(route.id);
      expect(op.summary).toBe(route.summary);
      expect(op.description).toContain(route.description);
      expect(op.tags).toEqual([route.tag]);
      expect(declared.has(route.tag)).toBe(true);
    }
    for (const tag of doc.tags) expect(tag.description.length).toBeGreaterThan(0);
  });

  it('POST /api/waitlist is deprecated: true, and no other operation is', () => {
    for (const route of routes) expect(operationOf(route).deprecated === true).toBe(route.deprecated !== undefined);
    expect(routes.filter((r) => r.deprecated)).toHaveLength(1);
  });

  it('request bodies: the waitlist takes JSON (WaitlistSignup) and a form of its own schema (WaitlistSignupForm), the token endpoint a form', () => {
    for (const route of routes) {
      const body = operationOf(route).requestBody;
      if (!route.request) {
        expect(body).toBeUndefined();
        continue;
      }
      expect(Object.keys(body!.content)).toEqual([...route.request.mediaTypes]);
      for (const type of route.request.mediaTypes) expect(body!.content[type]!.schema.$ref).toBe(`#/components/schemas/${idOf(requestSchema(route, type))}`);
    }
    const waitlist = operationOf(routes.find((r) => r.id === 'joinWaitlist')!).requestBody!.content;
    expect(waitlist['application/json']!.schema.$ref).toBe('#/components/schemas/WaitlistSignup');
    expect(waitlist['application/x-www-form-urlencoded']!.schema.$ref).toBe('#/components/schemas/WaitlistSignupForm');
  });

  it('every status of part 4 is documented with its body schema (Error, OAuthError for token 400/401, none for 303)', () => {
    for (const route of routes) {
      const op = operationOf(route);
      expect(Object.keys(op.responses).map(Number)).toEqual([...route.statuses]);
      for (const status of route.statuses) {
        const name = schemaNameOf(op, status);
        if (status === 303) expect(op.responses['303']!.content).toBeUndefined();
        else if (status === 200) expect(name).toBe(idOf(route.success[200]!));
        else if (route.auth === 'client' && (status === 400 || status === 401)) expect(name).toBe(idOf(OAuthErrorBody));
        else expect(name).toBe(idOf(ErrorBody));
      }
    }
  });

  it('every response carries RateLimit-Limit/-Remaining/-Reset/-Policy and X-API-Version', () => {
    for (const route of routes) {
      for (const status of route.statuses) {
        for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'X-API-Version']) {
          expect(headerRef(operationOf(route), status, name), `${route.id} ${status} ${name}`).toBeDefined();
        }
      }
    }
  });

  it('status-specific headers: Retry-After on 429, Location on 303, Allow on 405, WWW-Authenticate on 401/403', () => {
    for (const route of routes) {
      const op = operationOf(route);
      for (const status of route.statuses) {
        const has = (name: string) => headerRef(op, status, name) !== undefined;
        expect(has('Retry-After')).toBe(status === 429);
        expect(has('Location')).toBe(status === 303);
        expect(has('Allow')).toBe(status === 405);
        const challenge = (route.auth === 'bearer' && (status === 401 || status === 403)) || (route.auth === 'client' && status === 401);
        expect(has('WWW-Authenticate'), `${route.id} ${status}`).toBe(challenge);
      }
    }
  });

  it('Allow lists exactly the methods of the route; the Bearer challenge is required on stats 401 and 403', () => {
    for (const route of routes) {
      const allow = doc.components.headers[headerRef(operationOf(route), 405, 'Allow')!.split('/').pop()!]!;
      expect(allow.schema.const).toBe(route.methods.join(', '));
      expect(allow.required).toBe(true);
    }
    expect(doc.components.headers['WWW-Authenticate-Bearer']?.required).toBe(true);
  });

  it('every token answer, the 200 first, carries Cache-Control no-store and Pragma no-cache (RFC 6749 §5.1)', () => {
    const token = routes.find((r) => r.auth === 'client')!;
    const op = operationOf(token);
    for (const status of token.statuses) {
      expect(headerRef(op, status, 'Cache-Control')).toBeDefined();
      expect(headerRef(op, status, 'Pragma')).toBeDefined();
    }
    expect(schemaErrors(doc.components.headers['Cache-Control-NoStore']!.schema, 'no-store')).toEqual([]);
    expect(schemaErrors(doc.components.headers['Cache-Control-NoStore']!.schema, 'no-cache')).not.toEqual([]);
  });

  it('the deprecated operation documents Deprecation and a successor Link on every answer', () => {
    const legacy = routes.find((r) => r.deprecated)!;
    for (const status of legacy.statuses) {
      expect(headerRef(operationOf(legacy), status, 'Deprecation')).toBeDefined();
      expect(headerRef(operationOf(legacy), status, 'Link')).toBeDefined();
    }
  });
});

describe('openapi document: schemas and examples', () => {
  it('component schemas are z.toJSONSchema of the contract (input for requests, output for responses), without $schema', () => {
    for (const route of routes) {
      for (const type of route.request?.mediaTypes ?? []) {
        const schema = requestSchema(route, type);
        // References between ids point into components (api/docs/json-schemas.ts).
        const expected = JSON.parse(JSON.stringify(z.toJSONSchema(schema, { io: 'input' })).replaceAll('#/$defs/', '#/components/schemas/')) as { $defs: Record<string, unknown> };
        for (const [id, def] of Object.entries(expected.$defs)) expect(doc.components.schemas[id], id).toEqual(def);
      }
      const success = route.success[200];
      if (success) {
        const expected = z.toJSONSchema(success, { io: 'output' }) as { $defs: Record<string, unknown> };
        expect(doc.components.schemas[idOf(success)]).toEqual(expected.$defs[idOf(success)]);
      }
    }
    for (const schema of Object.values(doc.components.schemas)) expect(schema).not.toHaveProperty('$schema');
  });

  it('the waitlist request schema is closed and needs only email and consent (io input)', () => {
    const signup = doc.components.schemas[idOf(routes.find((r) => r.request && r.request.mediaTypes.length > 1)!.request!.schema)]!;
    expect(signup.additionalProperties).toBe(false);
    expect(signup.required).toEqual(['email', 'consent']);
  });

  it('every example (requests and responses) validates against its schema with Ajv 2020 + formats', () => {
    let count = 0;
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        const media = [
          ...Object.values(op!.requestBody?.content ?? {}),
          ...Object.values(op!.responses).flatMap((r) => Object.values(r.content ?? {})),
        ];
        for (const { schema, examples } of media) {
          expect(Object.keys(examples ?? {}).length, `${op!.operationId} has an example`).toBeGreaterThan(0);
          for (const [name, example] of Object.entries(examples ?? {})) {
            expect(schemaErrors(schema, example.value), `${op!.operationId} example ${name}`).toEqual([]);
            count += 1;
          }
        }
      }
    }
    expect(count).toBeGreaterThan(routes.length * 3);
  });

  it('every error example uses a code whose status is the response status', () => {
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op!.responses)) {
          // HEAD answers carry no body, so no examples (their GET twin has them).
          if (Number(status) < 400 || !response.content) continue;
          for (const example of Object.values(response.content['application/json']!.examples!)) {
            const code = (example.value as { error: ErrorCode }).error;
            expect(ERROR_STATUS[code], `${op!.operationId} ${status} ${code}`).toBe(Number(status));
            expect(response.description).toContain(`\`${code}\``);
          }
        }
      }
    }
  });

  it('HEAD: every route with HEAD has a head operation (operationId <id>Head): the statuses and headers of GET, and no body', () => {
    for (const route of routes.filter((r) => r.methods.includes('HEAD'))) {
      const item = doc.paths[route.path]!;
      const head = item.head!;
      expect(head, route.id).toBeDefined();
      expect(head.operationId).toBe(`${route.id}Head`);
      expect(Object.keys(head.responses)).toEqual(Object.keys(item.get!.responses));
      for (const [status, response] of Object.entries(head.responses)) {
        expect(response.content, `${head.operationId} ${status}`).toBeUndefined();
        expect(response.headers).toEqual(item.get!.responses[status]!.headers);
      }
      expect(head.security).toEqual(item.get!.security);
    }
    expect(routes.some((r) => r.methods.includes('HEAD'))).toBe(true);
  });
});
