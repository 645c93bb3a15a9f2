/**
 * Setup file of the e2e project: before a file's first line runs, the run's stack (built site,
 * front + sidecar on inject('stack').baseUrl) is up; the first file to get here starts it.
 */
import { need } from './services.ts';

await need('stack');
