import { setFlagsFromString } from 'node:v8';
import { buildApp } from './app.ts';
import { loadConfig } from './platform/config/config.ts';
import { ConfigError } from './platform/config/config-error.ts';
import { MigrationError } from './platform/db/migrator.ts';

/**
 * V8 lets the heap grow up to several times over between full collections, so a long streamed export left
 * its short-lived strings lying around: 100,000 ledger rows grew the process by 243 MB though it holds one
 * batch at a time. Growing the heap by at most 50% per collection bounds that to about 107 MB (64 MB of it
 * SQLite's page cache) for about 20% more CPU on such an export (bench:ledger, docs/forms.md "Excel ledger").
 * `HEAP_GROWING_PERCENT=0` restores V8's own heuristic. Set before anything is allocated.
 */
const heapGrowing = Number(process.env.HEAP_GROWING_PERCENT ?? 50);
if (Number.isInteger(heapGrowing) && heapGrowing >= 0 && heapGrowing <= 400) {
  setFlagsFromString(`--heap-growing-percent=${heapGrowing}`);
}

/**
 * How long a graceful stop may take: new connections are refused at once, requests in flight finish, the
 * scheduler lease is released, queued audit rows are written and the database closes. A second signal
 * ends the process at once.
 */
const SHUTDOWN_TIMEOUT_MS = 20_000;
const IDLE_REAP_MS = 100;

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({ config, jobs: true });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      app.log.warn(`${signal} received again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    // Bounded: a request or a job that does not finish in time does not keep the process alive.
    const force = setTimeout(() => {
      app.log.error(`shutdown took longer than ${SHUTDOWN_TIMEOUT_MS} ms, exiting`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    // A keep-alive connection whose request finishes during the stop would otherwise stay open until its
    // keep-alive timeout (72 s) and hold the close up: close connections as soon as they fall idle.
    const reap = setInterval(() => app.server.closeIdleConnections(), IDLE_REAP_MS);
    reap.unref();
    app.close().then(
      () => {
        app.log.info('shut down');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  console.log(`Shuzhi is running at http://localhost:${config.port}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof MigrationError) {
    console.error(error.message);
  } else {
    console.error('Shuzhi failed to start:', error);
  }
  process.exit(1);
});
