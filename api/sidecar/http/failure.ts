/**
 * What an exception that is not an ApiError means, and what is logged:
 * - the client hung up (its connection closed before the answer, usually while its body was being
 *   read): nothing went wrong here, so one quiet line, no stack, and no internal error;
 * - an engine that is away (EngineUnavailableError: PostgreSQL unreachable, the disk full): the
 *   500 is expected, and the engine's health tells the outage's story in a few lines
 *   (health/engine-health.ts), so the request only adds to its count;
 * - anything else is a bug or an I/O failure: one error line with a fresh error id and the
 *   detail, while the 500 body stays the generic one (errors.ts) and says nothing from the inside.
 */
import { randomBytes } from 'node:crypto';
import { redactPath } from '../../log/redact.ts';
import { EngineUnavailableError } from '../health/engine-health.ts';
import { ApiError } from './errors.ts';
import { errorDetail, type Logger } from './log.ts';

/**
 * True when the request's connection is gone. srvx aborts the request's signal when the Node
 * response closes before it ended (the client, or the front on its behalf, hung up); asking
 * after the failure is enough, the signal is computed from the connection's state.
 */
export function clientGone(request: Request): boolean {
  return request.signal?.aborted === true;
}

/** Logs one line for an unexpected exception and returns the ApiError to answer with. */
export function reportFailure(logger: Logger, request: Request, method: string, path: string, error: unknown): ApiError {
  if (clientGone(request)) {
    logger.info(`client closed the connection before the answer: ${method} ${redactPath(path)}`);
    // Nobody reads this answer; 400 because what arrived was an incomplete request, not our fault.
    return new ApiError('invalid_request');
  }
  if (error instanceof EngineUnavailableError) {
    error.health.requestAffected();
    return new ApiError('internal_error');
  }
  // 12 hex digits: enough to find one line in a day's log, short enough to read out on the phone.
  logger.error(`error id ${randomBytes(6).toString('hex')}: ${errorDetail(method, path, error)}`);
  return new ApiError('internal_error');
}
