import { local, storageKey } from '../storage/storage.ts';

/**
 * The user's last activity (mouse, keys, touch, wheel), shared by every tab of the app through localStorage:
 * a tab where the user works keeps the others from locking or signing out. Auto logout and the lock screen
 * both measure idleness from here.
 */

export const LAST_ACTIVITY_KEY = 'lastActivity';
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;
/** Activity is recorded at most this often (mousemove fires continuously). */
const RECORD_INTERVAL_MS = 1_000;
/** The shared value is written at most this often; other tabs only need it to the second or so. */
const SHARE_INTERVAL_MS = 5_000;

type ActivityListener = (at: number) => void;

let last = Date.now();
let lastShared = 0;
let tracking = 0;
const listeners = new Set<ActivityListener>();

function readShared(): number {
  const value = Number(local.get(LAST_ACTIVITY_KEY));
  return Number.isFinite(value) ? value : 0;
}

/** Records activity now (also called by code that knows the user acted, e.g. unlocking). */
export function recordActivity(now = Date.now()): void {
  if (now - last < RECORD_INTERVAL_MS && now >= last) return;
  last = now;
  if (now - lastShared >= SHARE_INTERVAL_MS) {
    lastShared = now;
    local.set(LAST_ACTIVITY_KEY, String(now));
  }
  for (const listener of listeners) listener(now);
}

/** The latest activity of this tab or any other. */
export function lastActivity(): number {
  return Math.max(last, readShared());
}

const onDomActivity = () => recordActivity();
const onStorage = (event: StorageEvent) => {
  if (event.key !== storageKey(LAST_ACTIVITY_KEY) || !event.newValue) return;
  const at = Number(event.newValue);
  if (Number.isFinite(at) && at > last) {
    last = at;
    for (const listener of listeners) listener(at);
  }
};

/** Starts listening to the page's input events; returns the stop function (reference counted). */
export function trackActivity(): () => void {
  if (tracking++ === 0) {
    // Opening the app counts as activity (a stale value of an earlier visit must not sign the user out).
    last = Date.now();
    lastShared = last;
    local.set(LAST_ACTIVITY_KEY, String(last));
    for (const name of ACTIVITY_EVENTS)
      window.addEventListener(name, onDomActivity, { passive: true, capture: true });
    window.addEventListener('storage', onStorage);
  }
  return () => {
    if (--tracking > 0) return;
    for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onDomActivity, { capture: true });
    window.removeEventListener('storage', onStorage);
  };
}

export function onActivity(listener: ActivityListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Calls `onIdle` once nobody has been active for `timeoutMs` (in any tab). One timer aimed at the deadline;
 * when it fires early because activity moved the deadline, it aims again. Returns the stop function.
 */
export function watchIdle(options: {
  timeoutMs: number;
  onIdle: () => void;
  lastActivity?: () => number;
  now?: () => number;
}): () => void {
  const { timeoutMs, onIdle } = options;
  const latest = options.lastActivity ?? lastActivity;
  const now = options.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const check = () => {
    if (stopped) return;
    const remaining = latest() + timeoutMs - now();
    if (remaining <= 0) {
      stopped = true;
      onIdle();
      return;
    }
    // Capped so that a suspended laptop's wake-up is noticed soon after.
    timer = setTimeout(check, Math.min(remaining, 60_000));
  };
  check();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
