import { REALTIME_CLIENT_EVENTS, REALTIME_PATH, REALTIME_UNAUTHORIZED } from '@shuzhi/contracts/realtime';
import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import { http } from '../http/http.ts';
import { tokens } from '../storage/storage.ts';

/**
 * The browser's realtime connection (socket.io, same origin as the API): opened once signed in, closed on
 * sign-out. socket.io reconnects by itself after network trouble; a refused handshake (expired access token)
 * is renewed through an ordinary API call, whose refresh flow stores a fresh pair, then retried.
 */

type Listener = (payload: unknown) => void;

let socket: Socket | null = null;
const listeners = new Map<string, Set<Listener>>();
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let refusals = 0;
let lastActiveSent = 0;

const ACTIVE_INTERVAL_MS = 60_000;
const MAX_RENEW_DELAY_MS = 30_000;

async function renewAndRetry(): Promise<void> {
  const current = socket;
  if (!current) return;
  refusals += 1;
  try {
    // A cheap authenticated call: an expired access token is renewed here; a dead session ends in the HTTP
    // client's 401 handling (tokens cleared, back to the login page).
    await http.get('/api/sysAuth/userInfo', undefined, { silent: true });
  } catch {
    // Network trouble: retry later all the same.
  }
  const delay = Math.min(MAX_RENEW_DELAY_MS, 1_000 * 2 ** Math.min(refusals - 1, 5));
  clearTimeout(renewTimer);
  renewTimer = setTimeout(() => {
    if (socket === current && !current.connected && tokens.access()) current.connect();
  }, delay);
}

/** Opens the connection (idempotent). */
export function connectRealtime(): void {
  if (socket) return;
  const base = import.meta.env.VITE_API_URL || undefined;
  const options = {
    path: REALTIME_PATH,
    // Read at every (re)connection, so a renewed token is used.
    auth: (cb: (data: object) => void) => cb({ token: tokens.access() ?? '' }),
    reconnectionDelay: 1_000,
    reconnectionDelayMax: 10_000,
  };
  const next = base ? io(base, options) : io(options);
  socket = next;
  next.onAny((event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  });
  next.on('connect', () => {
    refusals = 0;
  });
  next.on('connect_error', (error: Error) => {
    // The server's middleware refusal stops socket.io's own retries; anything else it retries itself.
    if (error.message === REALTIME_UNAUTHORIZED) void renewAndRetry();
  });
}

/** Closes the connection (sign-out, forced off). */
export function disconnectRealtime(): void {
  clearTimeout(renewTimer);
  socket?.disconnect();
  socket = null;
  refusals = 0;
}

/** Subscribes to a server event; returns the unsubscribe function. */
function onRealtime(event: string, listener: Listener): () => void {
  let set = listeners.get(event);
  if (!set) {
    set = new Set();
    listeners.set(event, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

/** Calls `handler` (its latest version) for every `event` while the component is mounted. */
export function useRealtimeEvent<T = unknown>(event: string, handler: (payload: T) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => onRealtime(event, (payload) => ref.current(payload as T)), [event]);
}

/** Tells the server the user is working (online-user list's last activity); sent at most once a minute. */
export function reportActivity(now = Date.now()): void {
  if (!socket?.connected || now - lastActiveSent < ACTIVE_INTERVAL_MS) return;
  lastActiveSent = now;
  socket.emit(REALTIME_CLIENT_EVENTS.active);
}
