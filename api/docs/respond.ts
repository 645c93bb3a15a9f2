/** Build-time bodies of the generated documents. */
export function textFile(body: BodyInit, contentType: string): Response {
  return new Response(body, { headers: { 'Content-Type': contentType } });
}

/** Pretty JSON with a final newline. */
export function jsonFile(value: unknown, contentType = 'application/json'): Response {
  return textFile(`${JSON.stringify(value, null, 2)}\n`, contentType);
}
