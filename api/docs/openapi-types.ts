/**
 * The subset of OpenAPI 3.1 objects this service's document uses (OpenAPI 3.1.0 §4.8). Schemas are
 * JSON Schema 2020-12 objects, kept as plain records.
 */
export type JsonSchema = Record<string, unknown>;

export interface Example {
  summary: string;
  value: unknown;
}

export interface MediaTypeObject {
  schema: JsonSchema;
  examples?: Record<string, Example>;
}

export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export type Ref = { $ref: string };

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Ref>;
  content?: Record<string, MediaTypeObject>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: SecurityRequirement[];
  deprecated?: boolean;
  requestBody?: { required: boolean; description?: string; content: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject>;
}

export type HttpMethodKey = 'get' | 'head' | 'post';
export type PathItem = Partial<Record<HttpMethodKey, OperationObject>>;

export interface OAuth2Scheme {
  type: 'oauth2';
  description: string;
  flows: { clientCredentials: { tokenUrl: string; scopes: Record<string, string> } };
}
interface HttpScheme {
  type: 'http';
  scheme: 'basic';
  description: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: {
    title: string;
    version: string;
    summary?: string;
    description: string;
    contact: { name: string; email: string; url?: string };
    license: { name: string; url: string };
  };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  externalDocs?: { description: string; url: string };
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, HeaderObject>;
    securitySchemes: Record<string, OAuth2Scheme | HttpScheme>;
  };
}
