import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { type JobHandler, JobRunner, newNodeId } from './runner.ts';
import { Scheduler } from './scheduler.ts';

/** The jobs of one app: the runner (run now, cancel) in every process, the scheduler where switched on. */
export type JobEngine = {
  readonly runner: JobRunner;
  readonly scheduler: Scheduler | null;
  readonly nodeId: string;
};

const engines = new WeakMap<AppContext, JobEngine>();

export type JobEngineOptions = {
  handlers: ReadonlyMap<string, JobHandler>;
  /** Take part in the leader election and fire scheduled triggers (real servers; tests ask for it). */
  scheduler: boolean;
  version: string | null;
};

/**
 * Sets the jobs up and ties their end to the app's: on close the scheduler releases its lease (another
 * process takes over at its next renewal) and runs still going are stopped and recorded as cancelled,
 * before the database closes.
 */
export async function installJobEngine(
  app: FastifyInstance,
  ctx: AppContext,
  options: JobEngineOptions,
): Promise<JobEngine> {
  const nodeId = newNodeId();
  const runner = new JobRunner(ctx, nodeId, options.handlers);
  const scheduler = options.scheduler ? new Scheduler(ctx, runner, options.version) : null;
  const engine: JobEngine = { runner, scheduler, nodeId };
  engines.set(ctx, engine);
  // A child context's onClose runs before the root's, which closes the cache and the database.
  await app.register(async (child) => {
    child.addHook('onClose', async () => {
      await scheduler?.close();
      await runner.close();
      engines.delete(ctx);
    });
  });
  await scheduler?.start();
  return engine;
}

export function jobEngineOf(ctx: AppContext): JobEngine {
  const engine = engines.get(ctx);
  if (!engine) throw new Error('the job engine is not installed');
  return engine;
}
