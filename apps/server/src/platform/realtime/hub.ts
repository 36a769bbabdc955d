import { type ForceOfflinePayload, REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import type { Server, Socket } from 'socket.io';
import type { AppContext } from '../context.ts';

/**
 * Realtime push (DESIGN §2): socket.io on the API's own HTTP server. The handshake authenticates with the
 * access token exactly like an HTTP call (signature, expiry, live session); each socket joins its user's,
 * session's and tenant's rooms. With Redis configured, the Redis adapter fans emits out to every process,
 * so `emitToUser` reaches the user's browsers whichever process holds them.
 *
 * Other modules use `emitToSession` / `emitToUser` / `emitToTenant`; they are no-ops when the app runs
 * without realtime (scripts).
 */

export type SocketData = { userId: number; tenantId: number; sessionId: number; accountType: number };

export const rooms = {
  user: (userId: number) => `user:${userId}`,
  session: (sessionId: number) => `session:${sessionId}`,
  tenant: (tenantId: number) => `tenant:${tenantId}`,
  /** Super admins see every tenant's online users. */
  superAdmins: 'super-admins',
};

/** What browsers may send: only the activity ping (contracts/realtime.ts REALTIME_CLIENT_EVENTS). */
export type ClientEvents = { active: () => void };
// Server → client events are the modules' own (contracts/realtime.ts and theirs), emitted loosely typed.
export type RealtimeServer = Server<ClientEvents, Record<string, never>, Record<string, never>, SocketData>;
export type RealtimeSocket = Socket<ClientEvents, Record<string, never>, Record<string, never>, SocketData>;
type Hub = { io: RealtimeServer };

// Keyed by the app's cache: one hub per app, found from any ctx that shares it.
const hubs = new WeakMap<object, Hub>();

function hubOf(ctx: AppContext): Hub | undefined {
  return hubs.get(ctx.cache);
}

/** Called by server.ts when the app's socket.io server starts and stops. */
export function registerHub(ctx: AppContext, io: RealtimeServer | null): void {
  if (io) hubs.set(ctx.cache, { io });
  else hubs.delete(ctx.cache);
}

function emit(ctx: AppContext, room: string | string[], event: string, payload?: unknown): void {
  const hub = hubOf(ctx);
  if (!hub) return;
  // Loosely typed on purpose: events are the modules' own contracts (contracts/realtime.ts and theirs).
  (hub.io.to(room) as unknown as { emit(event: string, ...args: unknown[]): boolean }).emit(
    event,
    ...(payload === undefined ? [] : [payload]),
  );
}

/** Sends an event to every browser of one session. */
export function emitToSession(ctx: AppContext, sessionId: number, event: string, payload?: unknown): void {
  emit(ctx, rooms.session(sessionId), event, payload);
}

/** Sends an event to every browser of a user, whichever session and process. */
export function emitToUser(ctx: AppContext, userId: number, event: string, payload?: unknown): void {
  emit(ctx, rooms.user(userId), event, payload);
}

/** Sends an event to every signed-in browser of a tenant. */
export function emitToTenant(ctx: AppContext, tenantId: number, event: string, payload?: unknown): void {
  emit(ctx, rooms.tenant(tenantId), event, payload);
}

/** Tells online-user lists of the tenant (and super admins') that sessions came, went or (dis)connected. */
export function onlineUsersChanged(ctx: AppContext, tenantId: number): void {
  emit(ctx, [rooms.tenant(tenantId), rooms.superAdmins], REALTIME_EVENTS.onlineUsersChanged);
}

/** Reasons whose message is a catalogue code; others are shown by the client's own texts. */
const REASON_CODES: Record<string, string> = { single_login: 'D1025' };

/**
 * Called by sessions.ts once sessions are revoked: their browsers get `forceOffline` and are disconnected,
 * and the tenants' online-user lists refresh.
 */
export async function sessionsEnded(
  ctx: AppContext,
  sessions: readonly { id: number; tenantId: number }[],
  reason: string,
): Promise<void> {
  const hub = hubOf(ctx);
  if (!hub || sessions.length === 0) return;
  const code = REASON_CODES[reason];
  const payload: ForceOfflinePayload = code ? { reason, code } : { reason };
  const sessionRooms = sessions.map((s) => rooms.session(s.id));
  emit(ctx, sessionRooms, REALTIME_EVENTS.forceOffline, payload);
  // The revoked token would be refused at the next handshake anyway; this ends the open sockets now.
  hub.io.in(sessionRooms).disconnectSockets(true);
  for (const tenantId of new Set(sessions.map((s) => s.tenantId))) onlineUsersChanged(ctx, tenantId);
}

/** Which of these sessions have a socket connected right now (every process, with the Redis adapter). */
export async function connectedSessions(
  ctx: AppContext,
  sessionIds: readonly number[],
): Promise<Set<number>> {
  const hub = hubOf(ctx);
  if (!hub || sessionIds.length === 0) return new Set();
  try {
    const sockets = await hub.io.in(sessionIds.map(rooms.session)).fetchSockets();
    return new Set(sockets.map((s) => s.data.sessionId));
  } catch (error) {
    // Another process not answering in time must not break the list: nobody counts as connected.
    ctx.log.warn({ err: error }, 'could not list realtime connections');
    return new Set();
  }
}
