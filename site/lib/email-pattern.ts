/**
 * The `pattern` of the e-mail field, so that a browser without JavaScript refuses the addresses
 * the API would refuse (e.g. `name@host` without a domain suffix): zod's email regex, which the
 * contract's `z.email()` uses. Browsers compile `pattern` anchored and with the `v` flag, where a
 * literal `-` in a character class must be escaped.
 */
import { z } from 'zod';

export const EMAIL_PATTERN: string = z.regexes.email.source
  .replace(/^\^/, '')
  .replace(/\$$/, '')
  .replace(/(?<!\\)-\]/g, '\\-]');
