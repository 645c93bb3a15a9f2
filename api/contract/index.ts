/** The contract (the website-and-API specification) as code. Imports nothing but zod. */
export * from './limits.ts';
export * from './enums.ts';
export * from './errors.ts';
export * from './paths.ts';
export * from './schemas.ts';
export * from './routes.ts';
export * from './consent.ts';
