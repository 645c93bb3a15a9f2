import { z } from 'zod';
import { buildOpenApiDocument } from '../api/docs/openapi.ts';
const doc = buildOpenApiDocument('https://x.example');
console.log(Object.keys(doc.components.schemas));
for (const io of ['input', 'output'] as const) {
  const r = z.toJSONSchema(z.globalRegistry, { io, target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }) as any;
  console.log(io, Object.keys(r.schemas));
  for (const k of Object.keys(r.schemas)) { const a = { ...r.schemas[k] }; delete a.$id; delete a.$schema; if (doc.components.schemas[k] && JSON.stringify(a) !== JSON.stringify(doc.components.schemas[k])) console.log('diff', io, k, JSON.stringify(r.schemas[k]).slice(0,200)); }
}
