import { buildApp } from './app.ts';
import { loadConfig } from './platform/config/config.ts';
import { ConfigError } from './platform/config/config-error.ts';
import { MigrationError } from './platform/db/migrator.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({ config, jobs: true });
  const shutdown = async (signal: string) => {
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
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
