/**
 * Operation 3 (and its deprecated alias, operation 5): join the waitlist, checks in the contract's
 * order, content type (415) -> size (413) -> parsing -> domain/signup.ts. New, repeated and
 * discarded sign-ups look the same from outside, each waiting for one commit of the store.
 */
import type { H3Event } from 'h3';
import { BODY_LIMIT_BYTES, DEFAULT_LANG, THANKS_PATHS, routeById, type Accepted } from '../../contract/index.ts';
import { checkSignup, type SignupInput } from '../domain/signup.ts';
import { decodeUtf8, mediaTypeOf, parseForm, readLimitedBody } from '../http/body.ts';
import { ApiError, jsonResponse, seeOther } from '../http/respond.ts';
import type { RouteContext } from '../deps.ts';

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const ACCEPTED: Accepted = { accepted: true };
/** RFC 9110 §15.5.16: a 415 may say what works (Accept-Post, W3C LDP). */
const ACCEPT_POST = (routeById('joinWaitlist').request?.mediaTypes ?? []).join(', ');

export async function joinWaitlist(event: H3Event, { env, deps }: RouteContext): Promise<Response> {
  const type = mediaTypeOf(event.req.headers.get('content-type'));
  if (type !== JSON_TYPE && type !== FORM_TYPE) {
    throw new ApiError('unsupported_media_type', { 'accept-post': ACCEPT_POST });
  }
  const bytes = await readLimitedBody(event.req, BODY_LIMIT_BYTES);
  const check = checkSignup(type === JSON_TYPE ? parseJson(bytes) : { channel: 'form', fields: parseForm(bytes) });
  if (check.outcome === 'invalid') throw new ApiError(check.code);

  // Contract part 1: the sandbox validates and answers like production, and stores nothing.
  if (env === 'production') {
    const now = new Date(deps.clock.now()).toISOString();
    if (check.outcome === 'valid') await deps.store.upsert(check.signup, type === FORM_TYPE ? 'form' : 'json', now);
    else await deps.store.sync();
  }
  if (type === JSON_TYPE) return jsonResponse(200, ACCEPTED);
  const lang = check.outcome === 'valid' ? (check.signup.lang ?? DEFAULT_LANG) : check.lang;
  return seeOther(THANKS_PATHS[lang]);
}

function parseJson(bytes: Uint8Array): SignupInput {
  try {
    // RFC 8259 §8.1: JSON text is UTF-8; other bytes are no JSON text either.
    return { channel: 'json', value: JSON.parse(decodeUtf8(bytes) ?? '') };
  } catch {
    throw new ApiError('invalid_json');
  }
}
