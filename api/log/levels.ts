/** pino's levels, most severe first; `silent` logs nothing. Read by api/config.ts (LOG_LEVEL) and the logger. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
