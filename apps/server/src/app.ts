import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { MIGRATIONS } from './db/migrations/migrations.ts';
import { seed } from './db/seeds/seed.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { lockScreenRoutes } from './modules/auth/lock-screen.routes.ts';
import { cacheRoutes } from './modules/cache/cache.routes.ts';
import { cockpitRoutes } from './modules/cockpit/cockpit.routes.ts';
import { configRoutes } from './modules/config/config.routes.ts';
import { constRoutes } from './modules/const/const.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { dictRoutes } from './modules/dict/dict.routes.ts';
import { diyClassifyRoutes } from './modules/diy-classify/diy-classify.routes.ts';
import { diyCollectRoutes } from './modules/diy-collect/diy-collect.routes.ts';
import { diyConfirmRoutes } from './modules/diy-confirm/diy-confirm.routes.ts';
import { diyDataRoutes } from './modules/diy-data/diy-data.routes.ts';
import { diyImportRoutes } from './modules/diy-import/diy-import.routes.ts';
import { diyLedgerRoutes } from './modules/diy-ledger/diy-ledger.routes.ts';
import { diyPeriodRoutes } from './modules/diy-period/diy-period.routes.ts';
import { diyQueryRoutes } from './modules/diy-query/diy-query.routes.ts';
import { diyRecycleRoutes } from './modules/diy-recycle/diy-recycle.routes.ts';
import { diyRollupRoutes } from './modules/diy-rollup/diy-rollup.routes.ts';
import { diyTableRoutes } from './modules/diy-table/diy-table.routes.ts';
import { diyTaskRoutes } from './modules/diy-task/diy-task.routes.ts';
import { diyWordRoutes } from './modules/diy-word/diy-word.routes.ts';
import { fileRoutes } from './modules/file/file.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { installJobs } from './modules/job/job.handlers.ts';
import { jobRoutes } from './modules/job/job.routes.ts';
import { logRoutes } from './modules/log/log.routes.ts';
import { loginModesRoutes } from './modules/login-modes/login-modes.routes.ts';
import { menuRoutes } from './modules/menu/menu.routes.ts';
import { noLoginRoutes } from './modules/no-login/no-login.routes.ts';
import { noticeRoutes } from './modules/notice/notice.routes.ts';
import { onlineUserRoutes } from './modules/online-user/online-user.routes.ts';
import { openAccessRoutes } from './modules/open-access/open-access.routes.ts';
import { orgRoutes } from './modules/org/org.routes.ts';
import { posRoutes } from './modules/pos/pos.routes.ts';
import { profileRoutes } from './modules/profile/profile.routes.ts';
import { regionRoutes } from './modules/region/region.routes.ts';
import { startRegions } from './modules/region/region.service.ts';
import type { RegionSource } from './modules/region/region.source.ts';
import { roleRoutes } from './modules/role/role.routes.ts';
import { serverRoutes } from './modules/server/server.routes.ts';
import { installSwagger } from './modules/swagger/swagger-gate.ts';
import { tenantRoutes } from './modules/tenant/tenant.routes.ts';
import { userRoutes } from './modules/user/user.routes.ts';
import { userCenterRoutes } from './modules/user-center/user-center.routes.ts';
import { userGroupRoutes } from './modules/user-group/user-group.routes.ts';
import { wireRoutes } from './modules/wire/wire.routes.ts';
import { installAccess, type RegisteredRoute } from './platform/access/access.ts';
import { installAudit, stopAudit } from './platform/audit/audit.ts';
import { DEFAULT_HASH_COST, type HashCost } from './platform/auth/password-hash.ts';
import { createTokenSigner } from './platform/auth/tokens.ts';
import { type Cache, createMemoryCache, createRedisCache } from './platform/cache/cache.ts';
import type { AppConfig } from './platform/config/config.ts';
import type { AppContext } from './platform/context.ts';
import { openDatabase } from './platform/db/db.ts';
import { createIdGenerator } from './platform/db/ids.ts';
import { migrate } from './platform/db/migrator.ts';
import { setTimeZone } from './platform/db/time.ts';
import { installErrorHandler } from './platform/errors/error-handler.ts';
import { installJsonMediaTypes } from './platform/http/json-types.ts';
import { installMultipart } from './platform/http/multipart.ts';
import { parseQueryString } from './platform/http/querystring.ts';
import type { RouteModule } from './platform/http/route.ts';
import { installZodCompilers } from './platform/http/schema-compilers.ts';
import { installSecurity } from './platform/http/security.ts';
import { installUploadSweep } from './platform/http/upload-sweep.ts';
import { installWebApp } from './platform/http/web-app.ts';
import { installRealtime } from './platform/realtime/server.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Every registered route with its access declaration. */
    registeredRoutes(): RegisteredRoute[];
  }
}

export type BuildOptions = {
  config: AppConfig;
  /** Insert the demo district where missing (default true). */
  seed?: boolean;
  /**
   * Regions: undefined — the bundled data (an empty table gets its first-start part, see region.service.ts);
   * a source — imported into an empty table and by sync (tests' fixtures); null — nothing at start.
   */
  regionSource?: RegionSource | null;
  /** Fastify logger; defaults to pino at config.logLevel. */
  logger?: boolean;
  /** Key prefix in a shared Redis (tests isolate themselves with it). */
  cachePrefix?: string;
  passwordHashing?: HashCost;
  /** Take part in running scheduled jobs (leader election, triggers); main.ts switches it on. Run now works either way. */
  jobs?: boolean;
};

// Trace ids: a random per-process prefix and a counter, unique across processes without per-request entropy.
const REQUEST_ID_PREFIX = randomBytes(4).toString('hex');
let requestCounter = 0;
const nextRequestId = () => `${REQUEST_ID_PREFIX}${(++requestCounter).toString(36).padStart(6, '0')}`;

/** TRUST_PROXY as a hop count: the nearest `hops` proxies may tell the client's address. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

const MODULES: RouteModule[] = [
  healthRoutes,
  authRoutes,
  lockScreenRoutes,
  onlineUserRoutes,
  userRoutes,
  userCenterRoutes,
  menuRoutes,
  configRoutes,
  constRoutes,
  dictRoutes,
  profileRoutes,
  logRoutes,
  loginModesRoutes,
  cacheRoutes,
  serverRoutes,
  regionRoutes,
  openAccessRoutes,
  orgRoutes,
  posRoutes,
  userGroupRoutes,
  noticeRoutes,
  roleRoutes,
  tenantRoutes,
  fileRoutes,
  jobRoutes,
  diyTableRoutes,
  diyDataRoutes,
  diyClassifyRoutes,
  diyRecycleRoutes,
  diyCollectRoutes,
  diyConfirmRoutes,
  diyLedgerRoutes,
  diyPeriodRoutes,
  diyRollupRoutes,
  diyImportRoutes,
  wireRoutes,
  diyTaskRoutes,
  noLoginRoutes,
  diyQueryRoutes,
  dashboardRoutes,
  cockpitRoutes,
  diyWordRoutes,
];

/** Builds the API: opens the database, applies migrations, seeds, and registers every module. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  setTimeZone(config.timeZone);
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    genReqId: nextRequestId,
    requestIdHeader: false,
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    routerOptions: { querystringParser: parseQueryString },
  });

  const { db, dialect } = openDatabase(config.database, {
    onConnectionError: (error) =>
      app.log.warn({ err: error }, 'database connection lost; the pool opens a new one'),
  });
  let cache: Cache | undefined;
  try {
    await migrate(db, dialect, MIGRATIONS);
    const prefix = options.cachePrefix ?? 'shuzhi:';
    cache = config.redisUrl
      ? await createRedisCache(config.redisUrl, prefix, app.log)
      : createMemoryCache(prefix);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const ctx: AppContext = {
    config,
    db,
    dialect,
    cache,
    newId: createIdGenerator(config.workerId),
    log: app.log,
    tokens: createTokenSigner(config.jwtSecret),
    passwordHashing: options.passwordHashing ?? DEFAULT_HASH_COST,
  };
  app.decorate('ctx', ctx);
  app.addHook('onClose', async () => {
    // Queued logs are written before the database closes.
    await stopAudit(ctx);
    await cache?.close();
    await db.destroy();
  });

  try {
    if (options.seed !== false) {
      const report = await seed(ctx);
      const inserted = Object.values(report).reduce((sum, n) => sum + n, 0);
      if (inserted > 0) app.log.info({ report }, 'seeded the demo district');
    }
    const regions = await startRegions(ctx, options.seed === false ? null : options.regionSource);
    if (regions) app.log.info({ regions }, 'imported the administrative regions');

    installZodCompilers(app);
    // The request id in every response, so a client's report finds the server's log lines.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
    installErrorHandler(app);
    installAudit(app, ctx);
    // Security headers and CORS first, so that refusals (401, 403, 429) carry them too.
    await installSecurity(app, ctx);
    const listRoutes = installAccess(app, ctx);
    app.decorate('registeredRoutes', listRoutes);
    // socket.io on the same server and port (its own path; HTTP hooks do not apply to it).
    installRealtime(app, ctx);

    // API docs behind the admin gate (or off with SWAGGER=off); before the modules so it sees their routes.
    await installSwagger(app, ctx);

    // JSON under the other media types the family's clients send (json-patch+json, text/json, *+json).
    installJsonMediaTypes(app);
    // multipart/form-data for upload routes (files, imports); parsed only when a route reads its file.
    await installMultipart(app);
    // What a killed process left in DATA_DIR/tmp goes at start, and hourly.
    installUploadSweep(app, ctx);
    await app.register(async (api) => {
      for (const register of MODULES) register(api, ctx);
    });
    await installWebApp(app, config.webDist);
    await installJobs(app, ctx, options.jobs === true);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
