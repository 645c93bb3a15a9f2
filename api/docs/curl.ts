/**
 * A copy-and-paste curl command for an operation, against the sandbox server (it needs no
 * credentials of your own), built from the operation's security and request example.
 */
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from '../contract/index.ts';
import { SCHEME, type OperationObject } from './operations.ts';

/** POSIX shell single quoting. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function usesScheme(op: OperationObject, name: string): boolean {
  return op.security.some((requirement) => name in requirement);
}

export function curlCommand(serverUrl: string, method: string, path: string, op: OperationObject): string {
  // curl -X HEAD would wait for a body that never comes; -I sends a real HEAD.
  const head = method.toUpperCase() === 'HEAD';
  const args: string[] = [head ? 'curl -I' : 'curl -i'];
  if (!head && method.toUpperCase() !== 'GET' && !op.requestBody) args.push(`-X ${method.toUpperCase()}`);
  if (usesScheme(op, SCHEME.clientBasic)) args.push(`-u ${shellQuote(`${SANDBOX_CLIENT_ID}:${SANDBOX_CLIENT_SECRET}`)}`);
  if (usesScheme(op, SCHEME.sandbox)) args.push(`-H "Authorization: Bearer $ACCESS_TOKEN"`);
  const content = op.requestBody?.content ?? {};
  // JSON when the operation takes it (the most common client), else the form.
  const json = content['application/json'];
  const form = content['application/x-www-form-urlencoded'];
  const example = Object.values((json ?? form)?.examples ?? {})[0]?.value;
  if (json && example !== undefined) {
    args.push(`-H ${shellQuote('Content-Type: application/json')}`, `--data ${shellQuote(JSON.stringify(example))}`);
  } else if (form && example && typeof example === 'object') {
    // curl sends --data-urlencode fields form-encoded, with Content-Type application/x-www-form-urlencoded.
    for (const [key, value] of Object.entries(example)) args.push(`--data-urlencode ${shellQuote(`${key}=${String(value)}`)}`);
  }
  args.push(shellQuote(`${serverUrl}${path}`));
  return args.join(' \\\n  ');
}
