/**
 * Reads a JSON Schema object of the document as rows of a field table: name (dotted for nested
 * objects), type, required, the rules a reader needs (enum, const, length, range, format) and the
 * description.
 */
import { code, parseInline, type Inline } from './markdown.ts';
import type { JsonSchema } from './json-schemas.ts';
import type { OpenApiDocument } from './openapi.ts';

/** Follows a local `#/components/schemas/...` reference. */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = doc.components.schemas[name];
  if (!target) throw new Error(`unresolved reference ${ref}`);
  return resolveSchema(doc, target);
}

export function refName(schema: JsonSchema | undefined): string | undefined {
  const ref = schema?.$ref;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

function rulesOf(schema: JsonSchema): string[] {
  const rules: string[] = [];
  if ('const' in schema) rules.push(`always ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum)) rules.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (typeof schema.maxLength === 'number') rules.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.minLength === 'number' && schema.minLength > 0) rules.push(`at least ${schema.minLength} characters`);
  // zod writes Number.MAX_SAFE_INTEGER as the maximum of an int; it is no rule a reader needs.
  if (typeof schema.minimum === 'number') rules.push(`at least ${schema.minimum}`);
  if (typeof schema.maximum === 'number' && schema.maximum < Number.MAX_SAFE_INTEGER) rules.push(`at most ${schema.maximum}`);
  return rules;
}

export function fieldRows(doc: OpenApiDocument, schema: JsonSchema, prefix = ''): Inline[][][] {
  const resolved = resolveSchema(doc, schema);
  const required = new Set((resolved.required ?? []) as string[]);
  return Object.entries((resolved.properties ?? {}) as Record<string, JsonSchema>).flatMap(([key, raw]) => {
    const property = resolveSchema(doc, raw);
    const name = `${prefix}${key}`;
    const type = Array.isArray(property.type) ? property.type.join(' or ') : String(property.type ?? 'any');
    const row = [
      [code(name)],
      [typeof property.format === 'string' ? `${type} (${property.format})` : type],
      [required.has(key) ? 'yes' : 'no'],
      [rulesOf(property).join('; ')],
      parseInline(typeof property.description === 'string' ? property.description : ''),
    ];
    return [row, ...(property.type === 'object' && property.properties ? fieldRows(doc, property, `${name}.`) : [])];
  });
}
