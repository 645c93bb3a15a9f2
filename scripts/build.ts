/**
 * `npm run build`: `astro build` into DIST_DIR, recording the build (api/start/site-build.ts) so
 * that `npm start` with the same settings serves it at once instead of building it again.
 */
import path from 'node:path';
import { configOrExit } from '../api/config.ts';
import { buildSite } from '../api/start/site-build.ts';
import { checkMessageTemplates } from '../site/lib/messages/templates.ts';

const root = path.resolve(import.meta.dirname, '..');
const config = configOrExit();
try {
  // The e-mail templates are content too: a broken one fails the build, not the first send.
  await checkMessageTemplates(root);
  await buildSite(root, config, process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
