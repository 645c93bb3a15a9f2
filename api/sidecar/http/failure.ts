/**
 * What an exception that is not an ApiError means, and what is logged: a client that hung up, one
 * quiet line; an engine away, nothing (its health tells the outage, the request adds to its count);
 * anything else, one error line with a fresh error id, the 500 body saying nothing from the inside.
 */
import { randomBytes } from 'node:crypto';
import { redactPath } from '../../log/redact.ts';
import { EngineUnavailableError } from '../health/engine-health.ts';
import { ApiError } from './errors.ts';
import { errorDetail, type Logger } from './log.ts';

/** True when the request's connection is gone: srvx aborts the request's signal when the Node response closes before it ended. */
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
