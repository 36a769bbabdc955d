import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { REALTIME_CLIENT_EVENTS, REALTIME_PATH, REALTIME_UNAUTHORIZED } from '@shuzhi/contracts/realtime';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { sessionPrincipal } from '../auth/sessions.ts';
import { watchRedisErrors } from '../cache/redis-errors.ts';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import {
  onlineUsersChanged,
  type RealtimeServer,
  type RealtimeSocket,
  registerHub,
  rooms,
  type SocketData,
} from './hub.ts';

/** A session's last-active time is written at most this often per socket. */
const ACTIVE_WRITE_MS = 60_000;

function bearerless(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096) return null;
  return value.replace(/^Bearer\s+/i, '');
}

/** Attaches socket.io to the app's server; closes it (and its Redis connections) with the app. */
export function installRealtime(app: FastifyInstance, ctx: AppContext): void {
  const io: RealtimeServer = new Server(app.server, {
    path: REALTIME_PATH,
    serveClient: false,
    // Clients reconnect by themselves; a dead browser is noticed within about a minute.
    pingInterval: 25_000,
    pingTimeout: 20_000,
    maxHttpBufferSize: 64 * 1024,
  });
  let redis: { pub: Redis; sub: Redis } | null = null;
  if (ctx.config.redisUrl) {
    const pub = new Redis(ctx.config.redisUrl, { maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    watchRedisErrors(pub, ctx.log, 'realtime redis (publish)');
    watchRedisErrors(sub, ctx.log, 'realtime redis (subscribe)');
    redis = { pub, sub };
    // The cache prefix separates deployments (and test apps) sharing one Redis.
    io.adapter(createAdapter(pub, sub, { key: `${ctx.cache.prefix}socket.io` }));
  }
  registerHub(ctx, io);

  io.use((socket, next) => {
    authenticateSocket(ctx, bearerless(socket.handshake.auth?.token)).then(
      (data) => {
        if (!data) return next(new Error(REALTIME_UNAUTHORIZED));
        socket.data = data;
        next();
      },
      (error: unknown) => {
        ctx.log.error({ err: error }, 'realtime handshake failed');
        next(new Error(REALTIME_UNAUTHORIZED));
      },
    );
  });

  io.on('connection', (socket) => {
    onConnection(ctx, socket).catch((error: unknown) => {
      ctx.log.error({ err: error }, 'realtime connection setup failed');
      socket.disconnect(true);
    });
  });

  // Before the HTTP server closes: upgraded connections would keep it open. Closing the transports (rather
  // than disconnecting the sockets) lets clients reconnect to another process during a rolling restart.
  app.addHook('preClose', async () => {
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    registerHub(ctx, null);
    // The adapter's (p)subscribe commands wait in the clients' offline queues until they connect; quitting
    // before that would reject them unhandled. Let them go out first (an app may close right after start).
    if (redis) await Promise.all([connected(redis.pub), connected(redis.sub)]);
    await Promise.allSettled([...io._nsps.values()].map((nsp) => nsp.adapter.close()));
    if (redis) await Promise.allSettled([redis.pub.quit(), redis.sub.quit()]);
  });
}

/** Resolves once a Redis client is ready, has ended, or after 2 s. */
function connected(client: Redis): Promise<void> {
  if (client.status === 'ready' || client.status === 'end') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', done);
    client.once('end', done);
  });
}

async function authenticateSocket(ctx: AppContext, token: string | null): Promise<SocketData | null> {
  if (!token) return null;
  const check = await ctx.tokens.verifyAccess(token);
  // An expired token is refused: the client renews it through an HTTP call and reconnects.
  if (check.status !== 'valid') return null;
  const principal = await sessionPrincipal(ctx, check.payload.SessionId);
  if (!principal || principal.userId !== check.payload.UserId) return null;
  return {
    userId: principal.userId,
    tenantId: principal.tenantId,
    sessionId: check.payload.SessionId,
    accountType: principal.accountType,
  };
}

async function onConnection(ctx: AppContext, socket: RealtimeSocket): Promise<void> {
  const { userId, tenantId, sessionId, accountType } = socket.data;
  await socket.join([
    rooms.user(userId),
    rooms.session(sessionId),
    rooms.tenant(tenantId),
    ...(accountType === ACCOUNT_TYPE.superAdmin ? [rooms.superAdmins] : []),
  ]);
  // A revocation between the handshake and the join would have missed this socket: look once more.
  if (!(await sessionPrincipal(ctx, sessionId))) {
    socket.disconnect(true);
    return;
  }
  let lastWrite = 0;
  const touch = () => {
    const now = Date.now();
    if (now - lastWrite < ACTIVE_WRITE_MS) return;
    lastWrite = now;
    ctx.db
      .updateTable('sys_session')
      .set({ last_active_time: formatDateTime() })
      .where('id', '=', sessionId)
      .where('revoked', '=', 0)
      .execute()
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'could not record session activity'));
  };
  touch();
  socket.on(REALTIME_CLIENT_EVENTS.active, touch);
  socket.on('disconnect', () => onlineUsersChanged(ctx, tenantId));
  onlineUsersChanged(ctx, tenantId);
}
