/**
 * The front alone (`node api/front/main.ts`): serves DIST_DIR and proxies the API to a sidecar
 * that runs elsewhere, where SIDECAR_LISTEN says (DATA_DIR/sidecar.sock by default, or
 * SIDECAR_HOST:SIDECAR_PORT; api/net/sidecar-address.ts). `npm start` (scripts/start.ts, api/start/) runs both.
 */
import { configOrExit } from '../config.ts';
import { createLogger } from '../log/logger.ts';
import { describeAddress, sidecarAddress } from '../net/sidecar-address.ts';
import { startFront } from './start.ts';

const config = configOrExit();
const logger = createLogger('front', config);
const front = await startFront(config, { logger }).catch((error: Error) => {
  // A refusal to start is for a person, like a configuration error: plain text on stderr.
  console.error(`cannot start the front: ${error.message}`);
  process.exit(1);
});
logger.info(`listening on ${front.url}; site from ${config.DIST_DIR}; API at ${describeAddress(sidecarAddress(config))}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    logger.info(`${signal}: finishing requests in flight, then stopping`);
    await front.close();
    front.closeProxy();
    logger.info('stopped');
    process.exit(0);
  });
}
