/**
 * The front alone (`node api/front/main.ts`): serves DIST_DIR and proxies the API to a sidecar
 * that runs elsewhere at SIDECAR_HOST:SIDECAR_PORT. `npm start` (scripts/start.ts) runs both.
 */
import { configOrExit } from '../config.ts';
import { startFront } from './start-front.ts';

const config = configOrExit();
const front = await startFront(config).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
console.log(`listening on ${front.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await front.close();
    front.closeProxy();
    process.exit(0);
  });
}
