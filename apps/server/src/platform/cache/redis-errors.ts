import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

type Log = Pick<FastifyBaseLogger, 'warn' | 'info' | 'debug'>;

/**
 * Listens for a Redis client's errors so that a dropped connection is logged, not thrown: an 'error' event
 * nobody listens for would end the process. The client reconnects by itself (ioredis's retry strategy);
 * the first error of an outage is a warning, the retries that follow are debug lines, and the reconnect is
 * said once.
 */
export function watchRedisErrors(client: Redis, log: Log, name: string): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) {
      log.debug({ err: error }, `${name}: still unreachable`);
      return;
    }
    down = true;
    log.warn({ err: error }, `${name}: connection error; reconnecting`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info(`${name}: reconnected`);
  });
}
