/** Part 2: enum values of the WaitlistSignup fields. */
export const ROLES = ['developer', 'platform', 'data', 'founder', 'other'] as const;
export const BUILDING = ['agents', 'rag', 'research', 'extraction', 'evaluating'] as const;
export const SOURCES = ['hero', 'cta'] as const;
export const LANGS = ['en', 'de'] as const;
export const DEFAULT_LANG = 'en' as const;
export const ENVIRONMENTS = ['production', 'sandbox'] as const;

export type Role = (typeof ROLES)[number];
export type Building = (typeof BUILDING)[number];
export type Source = (typeof SOURCES)[number];
export type Lang = (typeof LANGS)[number];
export type Environment = (typeof ENVIRONMENTS)[number];
