/**
 * zod 4 → JSON Schema 2020-12 for `components.schemas`. Every contract schema carries a meta id
 * (`.meta({ id })`); that id is the component name, and references between ids point into
 * `#/components/schemas/`.
 */
import { z } from 'zod';

/** A JSON Schema 2020-12 object, kept as a plain record. */
export type JsonSchema = Record<string, unknown>;
export type Ref = { $ref: string };

/** `input` for request bodies (defaults not required), `output` for responses. */
export type SchemaIo = 'input' | 'output';

const COMPONENTS = '#/components/schemas/';

export function schemaId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('contract schema without a meta id: add .meta({ id }) in api/contract/schemas.ts');
  return id;
}

export function schemaRef(schema: z.ZodType): Ref {
  return { $ref: `${COMPONENTS}${schemaId(schema)}` };
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace(/^#\/\$defs\//, COMPONENTS) : rewriteRefs(inner);
  }
  return out;
}

/**
 * Converts each schema with its io mode and collects it (and any id'd schema nested in it) by id.
 * The same id converted twice must give the same JSON Schema, else the document would lie for one
 * direction.
 */
export function componentSchemas(entries: readonly { schema: z.ZodType; io: SchemaIo }[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const { schema, io } of entries) {
    const { $defs: defs = {} } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as { $defs?: Record<string, JsonSchema> };
    for (const [id, def] of Object.entries(defs)) {
      const component = rewriteRefs(def) as JsonSchema;
      const previous = out[id];
      if (previous && JSON.stringify(previous) !== JSON.stringify(component)) {
        throw new Error(`schema ${id} differs between request and response use`);
      }
      out[id] = component;
    }
    if (!defs[schemaId(schema)]) throw new Error(`schema ${schemaId(schema)} was not extracted by z.toJSONSchema`);
  }
  return out;
}
