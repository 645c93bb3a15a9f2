/**
 * The request id: created by the front for every request (or taken from a trusted proxy's
 * X-Request-Id), written on the front's request line, and passed to the sidecar in the same
 * header so that its error lines name the request they belong to.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an id may look like: short, no spaces or control characters (it goes into log lines). */
const ACCEPTABLE = /^[A-Za-z0-9._:+/=-]{1,128}$/;

export function acceptableRequestId(value: string | string[] | undefined): string | undefined {
  const id = Array.isArray(value) ? value[value.length - 1] : value;
  return id !== undefined && ACCEPTABLE.test(id) ? id : undefined;
}
