import { type DiffOperation, LOG_STATUS, type VisitAction } from '@shuzhi/contracts/log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_TENANT_ID } from '../../db/seeds/seed.ts';
import { cachedConfigBool, configBool } from '../config/sys-config.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { currentDateTime } from '../db/time.ts';
import type { LogRow, LogTable } from './log-insert.ts';
import { isSecretKey, MASK, maskParams } from './mask.ts';
import { clientInfo, parseUserAgent } from './user-agent.ts';
import { type AuditWriter, type AuditWriterOptions, createAuditWriter } from './writer.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** A write's route and the envelope code and message of its answer, noted when it is sent (operation log). */
    auditOutcome: AuditOutcome | null;
    /** Who an anonymous request acts for: a sign-in names the account once it is known (operation log). */
    auditActor: Actor | null;
  }
}

type WriteRoute = { controller: string | null; action: string | null; routeUrl: string | null };
type AuditOutcome = { route: WriteRoute; code: string | null; message: string | null };

const writers = new WeakMap<AppContext, AuditWriter>();
const stoppers = new WeakMap<AppContext, () => Promise<void>>();
const pendingOf = new WeakMap<AppContext, Set<Promise<void>>>();

async function settle(ctx: AppContext): Promise<void> {
  const pending = pendingOf.get(ctx);
  if (pending && pending.size > 0) await Promise.all(pending);
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
/** Actions that read although they are POSTed (paged searches, exports); they leave no operation log. */
const READ_ACTIONS = new Set(['page', 'list', 'detail', 'export', 'tree']);
const MESSAGE_LIMIT = 500;
const STACK_LIMIT = 8000;
const CODE_AT_START = /^\{"code":(?:(-?\d+)|"([^"]{0,32})")/;

const cut = (text: string | null | undefined, limit: number) =>
  text === null || text === undefined ? null : text.length > limit ? `${text.slice(0, limit)}…` : text;

/** Base and tenant columns of a new log row, stamped with the actor. */
function stamp(ctx: AppContext, actor: Actor) {
  return {
    id: ctx.newId(),
    create_time: currentDateTime(),
    update_time: null,
    create_user_id: actor.userId,
    create_user_name: actor.realName,
    update_user_id: null,
    update_user_name: null,
    is_delete: 0,
    tenant_id: actor.tenantId ?? DEFAULT_TENANT_ID,
    user_id: actor.userId,
    account: cut(actor.account, 64),
    real_name: cut(actor.realName, 64),
  };
}

export type Actor = {
  userId: number | null;
  tenantId: number | null;
  account: string | null;
  realName: string | null;
};

const actorOf = (user: AuthUser | null): Actor =>
  user
    ? { userId: user.userId, tenantId: user.tenantId, account: user.account, realName: user.realName }
    : { userId: null, tenantId: null, account: null, realName: null };

function clientOf(request: FastifyRequest) {
  const userAgent = request.headers['user-agent'] ?? null;
  return { ip: request.ip ?? null, user_agent: cut(userAgent, 512), ...parseUserAgent(userAgent) };
}

function enqueue<T extends LogTable>(ctx: AppContext, table: T, row: LogRow<T>): void {
  writers.get(ctx)?.enqueue(table, row);
}

/** Route patterns whose POST/PUT/DELETE/PATCH requests are writes, decided once per pattern. */
const writeRoutes = new Map<string, WriteRoute | null>();

function writeRoute(request: FastifyRequest): WriteRoute | null {
  if (!WRITE_METHODS.has(request.method)) return null;
  const pattern = request.routeOptions.url;
  if (!pattern) return null;
  let known = writeRoutes.get(pattern);
  if (known === undefined) {
    const [, api, controller, action] = pattern.split('/');
    known =
      api === 'api' && !READ_ACTIONS.has(action ?? '')
        ? {
            controller: controller ?? null,
            action: action && !action.startsWith(':') ? action : null,
            routeUrl: cut(pattern, 256),
          }
        : null;
    writeRoutes.set(pattern, known);
  }
  return known;
}

function paramsOf(request: FastifyRequest): string | null {
  const body = request.body;
  if (body !== undefined && body !== null && !(typeof body === 'string' && body === ''))
    return maskParams(body);
  return maskParams(request.query);
}

function queueOperation(
  ctx: AppContext,
  request: FastifyRequest,
  statusCode: number,
  route: WriteRoute,
  outcome: AuditOutcome | null,
  elapsed: number,
): void {
  const code = outcome?.code ?? String(statusCode);
  // A sign-in is anonymous: the account it was for names the user and the tenant, once it is known.
  const user: Actor | null = request.user ?? request.auditActor;
  let account = user?.account ?? null;
  if (!account) {
    // No actor named (a sign-in that failed before any lookup): the account in the body, if any.
    const named = (request.body as { account?: unknown } | null)?.account;
    if (typeof named === 'string') account = named;
  }
  const userAgent = request.headers['user-agent'] ?? null;
  const client = clientInfo(userAgent);
  const userId = user?.userId ?? null;
  const realName = cut(user?.realName, 64);
  // One flat literal (no spreads): this runs for every write, and the writer binds it column by column.
  enqueue(ctx, 'sys_log_op', {
    id: ctx.newId(),
    create_time: currentDateTime(),
    update_time: null,
    create_user_id: userId,
    create_user_name: user?.realName ?? null,
    update_user_id: null,
    update_user_name: null,
    is_delete: 0,
    tenant_id: user?.tenantId ?? DEFAULT_TENANT_ID,
    user_id: userId,
    account: cut(account, 64),
    real_name: realName,
    ip: request.ip ?? null,
    browser: client.browser,
    os: client.os,
    user_agent: cut(userAgent, 512),
    http_method: request.method,
    route_url: route.routeUrl,
    url: cut(request.url, 1024) ?? '',
    controller: route.controller,
    action: route.action ?? request.method.toLowerCase(),
    params: paramsOf(request),
    code,
    status: code === '200' ? LOG_STATUS.success : LOG_STATUS.failure,
    message: cut(outcome?.message, MESSAGE_LIMIT),
    elapsed,
    trace_id: request.id,
  });
}

/**
 * Installs audit logging: the batch writer, the operation log of every write (onSend notes the envelope
 * code, onResponse queues the row when `sys_oplog` is on). Visit, exception and diff
 * logs come through `recordVisit`, `recordException` and `recordDiff`. Call `stopAudit` before the database
 * closes.
 */
export function installAudit(
  app: FastifyInstance,
  ctx: AppContext,
  options: AuditWriterOptions = {},
): AuditWriter {
  const writer = createAuditWriter(ctx, options);
  writers.set(ctx, writer);
  // Operation rows still waiting for the config check; flushes wait for them.
  const deciding = new Set<Promise<void>>();
  pendingOf.set(ctx, deciding);
  stoppers.set(ctx, async () => {
    await settle(ctx);
    await writer.close();
  });

  app.decorateRequest('auditOutcome', null);
  app.decorateRequest('auditActor', null);
  app.addHook('onSend', (request, _reply, payload, done) => {
    // With operation logging off (and known to be off) a write costs nothing here.
    if (cachedConfigBool(ctx, 'sys_oplog') === false) return done(null, payload);
    const route = writeRoute(request);
    if (route === null) return done(null, payload);
    const text =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? payload.toString('utf8', 0, 64)
          : null;
    const m = text ? CODE_AT_START.exec(text) : null;
    let code: string | null = null;
    let message: string | null = null;
    if (m) {
      code = m[1] ?? m[2] ?? '';
      if (code !== '200' && typeof payload === 'string') {
        try {
          message = (JSON.parse(payload) as { message?: string | null }).message ?? null;
        } catch {
          message = null;
        }
      }
    }
    request.auditOutcome = { route, code, message };
    done(null, payload);
  });

  // Callback style and not awaited: the response has gone already; the row is queued when the config says so.
  app.addHook('onResponse', (request, reply, done) => {
    // The usual case: the flag is in this process's cache, so nothing is awaited.
    const known = cachedConfigBool(ctx, 'sys_oplog');
    if (known === false) return done();
    const outcome = request.auditOutcome;
    const route = outcome ? outcome.route : writeRoute(request);
    if (route !== null) {
      const elapsed = Math.round(reply.elapsedTime);
      if (known) {
        queueOperation(ctx, request, reply.statusCode, route, outcome, elapsed);
        return done();
      }
      const pending = configBool(ctx, 'sys_oplog').then(
        (on) => {
          if (on) queueOperation(ctx, request, reply.statusCode, route, outcome, elapsed);
        },
        (error: unknown) => ctx.log.error({ err: error }, 'operation log skipped'),
      );
      deciding.add(pending);
      pending.finally(() => deciding.delete(pending));
    }
    done();
  });
  return writer;
}

/**
 * Names who an anonymous request acts for in its operation log row: a sign-in passes the object it fills in
 * as the account becomes known (user, tenant), so the row lands in that account's tenant, not the default one.
 */
export function auditAs(request: FastifyRequest, actor: Actor): void {
  request.auditActor = actor;
}

/** Writes what is queued (the app's onClose, before the database closes). */
export async function stopAudit(ctx: AppContext): Promise<void> {
  await stoppers.get(ctx)?.();
  stoppers.delete(ctx);
}

/** Writes every queued log entry now (tests, shutdown). */
export async function flushAudit(ctx: AppContext): Promise<void> {
  await settle(ctx);
  await writers.get(ctx)?.flush();
}

export function auditWriterOf(ctx: AppContext): AuditWriter | undefined {
  return writers.get(ctx);
}

export type VisitEntry = {
  action: VisitAction;
  success: boolean;
  code: string;
  message: string | null;
  user: Actor;
  ip: string | null;
  userAgent: string | null;
  elapsed: number | null;
};

/** A sign-in, failed sign-in or sign-out. */
export function recordVisit(ctx: AppContext, entry: VisitEntry): void {
  enqueue(ctx, 'sys_log_vis', {
    ...stamp(ctx, entry.user),
    ip: entry.ip,
    user_agent: cut(entry.userAgent, 512),
    ...parseUserAgent(entry.userAgent),
    action: entry.action,
    status: entry.success ? LOG_STATUS.success : LOG_STATUS.failure,
    code: entry.code,
    message: cut(entry.message, MESSAGE_LIMIT),
    elapsed: entry.elapsed === null ? null : Math.round(entry.elapsed),
  });
}

/** A fault answered with 500; `traceId` is the one the client saw. */
export function recordException(
  ctx: AppContext,
  request: FastifyRequest,
  error: Error,
  traceId: string,
): void {
  enqueue(ctx, 'sys_log_ex', {
    ...stamp(ctx, actorOf(request.user)),
    ...clientOf(request),
    trace_id: traceId,
    http_method: request.method,
    route_url: cut(request.routeOptions.url, 256),
    url: cut(request.url, 1024) ?? '',
    message: cut(error.message, 4000),
    stack: cut(error.stack, STACK_LIMIT),
    params: paramsOf(request),
  });
}

export type DiffEntry = {
  table: string;
  recordId: number;
  operation: DiffOperation;
  /** Rows as the API names fields (camelCase); null for an add (before) or a delete (after). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  user: AuthUser;
  traceId: string | null;
};

/** Fields that change on every write and say nothing about the content. */
const STAMP_FIELDS = new Set(['updateTime', 'updateUserId', 'updateUserName']);

// A changed password hash shows as changed, but neither hash is kept.
const hideSecrets = (key: string, value: unknown) =>
  key !== '' && isSecretKey(key) && value !== null ? MASK : value;

/** A field-level before/after of a row in a sensitive table. */
export function recordDiff(ctx: AppContext, entry: DiffEntry): void {
  const { before, after } = entry;
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changed = [...keys].filter(
    (k) => !STAMP_FIELDS.has(k) && (before?.[k] ?? null) !== (after?.[k] ?? null),
  );
  enqueue(ctx, 'sys_log_diff', {
    ...stamp(ctx, actorOf(entry.user)),
    table_name: entry.table,
    record_id: entry.recordId,
    operation: entry.operation,
    before_data: before ? JSON.stringify(before, hideSecrets) : null,
    after_data: after ? JSON.stringify(after, hideSecrets) : null,
    changed_fields: changed.join(','),
    trace_id: entry.traceId,
  });
}
