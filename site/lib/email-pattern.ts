/**
 * The `pattern` of the e-mail field: zod's email regex, which the contract's `z.email()` uses
 * (docs/site.md, "The sign-up form"). Browsers compile `pattern` anchored and with the `v` flag,
 * where a literal `-` in a character class must be escaped.
 */
import { z } from 'zod';

export const EMAIL_PATTERN: string = z.regexes.email.source
  .replace(/^\^/, '')
  .replace(/\$$/, '')
  .replace(/(?<!\\)-\]/g, '\\-]');
