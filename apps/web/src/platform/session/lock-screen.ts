import { create } from 'zustand';
import { decodeJwtPayload } from '../http/jwt.ts';
import { local, storageKey, tokens } from '../storage/storage.ts';

/**
 * The lock screen's state (SPEC §3 lock screen). Kept in localStorage so that a reload or another tab stays
 * locked, and tied to the session it was locked in: a new sign-in is never born locked.
 */
const LOCK_SCREEN_KEY = 'lockScreen';

function currentSessionId(): string | null {
  const id = decodeJwtPayload(tokens.access())?.SessionId;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
}

function storedLock(): boolean {
  const session = currentSessionId();
  return session !== null && local.get(LOCK_SCREEN_KEY) === session;
}

type LockState = { locked: boolean; lock(): void; unlock(): void; sync(): void };

export const useLockScreen = create<LockState>()((set) => ({
  locked: storedLock(),
  lock: () => {
    const session = currentSessionId();
    if (session === null) return;
    local.set(LOCK_SCREEN_KEY, session);
    set({ locked: true });
  },
  unlock: () => {
    local.remove(LOCK_SCREEN_KEY);
    set({ locked: false });
  },
  /** Re-reads the stored state (another tab locked or unlocked, or the session changed). */
  sync: () => set({ locked: storedLock() }),
}));

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === storageKey(LOCK_SCREEN_KEY) || event.key === null) useLockScreen.getState().sync();
  });
}
