/**
 * The OpenAPI 3.1 document, generated from the contract's route table and zod schemas, the brand
 * and a base URL. Pure: the build endpoint (site/pages/openapi.json.ts), the Markdown twin, the
 * reference page and the tests all call this one function.
 */
import type { z } from 'zod';
import {
  API_DESCRIPTION_VERSION,
  BODY_LIMIT_BYTES,
  ErrorBody,
  OAuthErrorBody,
  OPENAPI_VERSION,
  ROUTES,
  SANDBOX_CLIENT_ID,
  SANDBOX_CLIENT_SECRET,
  SCOPES,
  STATS_SCOPE,
  environmentUrls,
  requestSchema,
  type Environment,
  type Route,
} from '../contract/index.ts';
import { BRAND } from '../contract/brand.ts';
import { headerComponents } from './headers.ts';
import { componentSchemas, type SchemaIo } from './json-schemas.ts';
import { headOperation, methodKey, operation, SCHEME, type OperationObject } from './operations.ts';

const TAG_DESCRIPTIONS: Record<Route['tag'], string> = {
  Status: 'Zero-auth status probe.',
  Waitlist: 'Sign-ups to the early-access waitlist. The only write operation.',
  OAuth: 'OAuth 2.0 client-credentials grant: short-lived Bearer access tokens.',
  Statistics: 'Aggregate waitlist counts for callers holding the statistics scope.',
  Discovery: 'Zero-auth index of a base path, linking every operation and discovery document.',
  MCP: 'The MCP endpoint (not an operation of this document).',
};

function infoDescription(baseUrl: string): string {
  const production = environmentUrls(baseUrl, 'production');
  const sandbox = environmentUrls(baseUrl, 'sandbox');
  return [
    `The HTTP JSON API of the ${BRAND.productLong} early-access waitlist: a sign-up, a status probe, an OAuth 2.0 ` +
      'client-credentials token endpoint and aggregate waitlist statistics.',
    `Two servers share these paths. The sandbox (\`${sandbox.issuer}\`) has the same contract, stores nothing, ` +
      `returns fixed example statistics and accepts the public client \`${SANDBOX_CLIENT_ID}\` with the secret ` +
      `\`${SANDBOX_CLIENT_SECRET}\`. Production clients are issued by the operator on request.`,
    `Statistics need a Bearer token with the scope \`${STATS_SCOPE}\` from the token endpoint of the same ` +
      `environment. Discovery: RFC 8414 metadata at \`${production.authorizationServerMetadata}\` (sandbox: ` +
      `\`${sandbox.authorizationServerMetadata}\`), RFC 9728 metadata at \`${production.protectedResourceMetadata}\` ` +
      `(sandbox: \`${sandbox.protectedResourceMetadata}\`) and the RFC 9727 catalog at \`${production.apiCatalog}\`.`,
    'Every response carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`, `RateLimit-Policy` and ' +
      '`X-API-Version`; a 429 adds `Retry-After`. Crawl sequentially with one client. HEAD is answered for every ' +
      `GET operation. Request bodies are limited to ${BODY_LIMIT_BYTES / 1024} KB. Unknown paths answer 404 with ` +
      'an `Error` body.',
  ].join('\n\n');
}

function oauthScheme(baseUrl: string, env: Environment) {
  const urls = environmentUrls(baseUrl, env);
  const who =
    env === 'sandbox'
      ? `Sandbox issuer \`${urls.issuer}\`; client id and secret are both \`${SANDBOX_CLIENT_ID}\`.`
      : `Production issuer \`${urls.issuer}\`; clients are issued by the operator.`;
  return {
    type: 'oauth2' as const,
    description: `OAuth 2.0 client credentials (RFC 6749 §4.4). ${who} Tokens are valid only on the server of the same environment.`,
    flows: {
      clientCredentials: {
        tokenUrl: urls.token,
        scopes: Object.fromEntries(SCOPES.map((scope) => [scope, 'Read aggregate waitlist counts (no personal data).'])),
      },
    },
  };
}

const CLIENT_SECRET_BASIC = {
  type: 'http',
  scheme: 'basic',
  description:
    'client_secret_basic (RFC 6749 §2.3.1): the client id and secret, each form-url-encoded, as the Basic ' +
    'user and password. Alternatively send client_id and client_secret in the form body (client_secret_post).',
} as const;

export function buildOpenApiDocument(baseUrl: string) {
  const production = environmentUrls(baseUrl, 'production');
  const sandbox = environmentUrls(baseUrl, 'sandbox');
  const paths: Record<string, Partial<Record<'get' | 'head' | 'post', OperationObject>>> = {};
  const securitySchemes: Record<string, ReturnType<typeof oauthScheme> | typeof CLIENT_SECRET_BASIC> = {
    [SCHEME.production]: oauthScheme(baseUrl, 'production'),
    [SCHEME.sandbox]: oauthScheme(baseUrl, 'sandbox'),
    [SCHEME.clientBasic]: CLIENT_SECRET_BASIC,
  };
  // Request schemas in input mode, response schemas (and the error bodies) in output mode.
  const schemas: { schema: z.ZodType; io: SchemaIo }[] = [];
  for (const route of ROUTES as readonly Route[]) {
    paths[route.path] = {
      ...paths[route.path],
      [methodKey(route.methods)]: operation(route, production.issuer),
      ...(route.methods.includes('HEAD') ? { head: headOperation(route, production.issuer) } : {}),
    };
    for (const type of route.request?.mediaTypes ?? []) schemas.push({ schema: requestSchema(route, type), io: 'input' });
    for (const schema of Object.values(route.success)) if (schema) schemas.push({ schema, io: 'output' });
  }
  schemas.push({ schema: ErrorBody, io: 'output' }, { schema: OAuthErrorBody, io: 'output' });
  const tags: Route['tag'][] = [...new Set(ROUTES.map((route) => route.tag))];
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: `${BRAND.product} waitlist API`,
      version: API_DESCRIPTION_VERSION,
      summary: `Early-access waitlist, status probe and OAuth-protected statistics of ${BRAND.productLong}.`,
      description: infoDescription(baseUrl),
      contact: { name: BRAND.operator.name, email: BRAND.operator.email, url: production.guide },
      license: { name: BRAND.license.name, url: BRAND.license.url },
    },
    servers: [
      { url: production.issuer, description: 'Production' },
      { url: sandbox.issuer, description: 'Sandbox' },
    ],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    externalDocs: { description: 'API guide', url: production.guide },
    paths,
    components: {
      schemas: componentSchemas(schemas),
      headers: headerComponents(),
      securitySchemes,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
