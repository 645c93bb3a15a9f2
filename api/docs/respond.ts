/** Build-time bodies of the generated documents: pretty JSON with a final newline. */
export function jsonBody(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function jsonFile(value: unknown, contentType = 'application/json'): Response {
  return new Response(jsonBody(value), { headers: { 'Content-Type': contentType } });
}
