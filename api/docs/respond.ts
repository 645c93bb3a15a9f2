/** Build-time bodies of the generated JSON documents: pretty JSON with a final newline. */
export function jsonFile(value: unknown, contentType = 'application/json'): Response {
  return new Response(`${JSON.stringify(value, null, 2)}\n`, { headers: { 'Content-Type': contentType } });
}
