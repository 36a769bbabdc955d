import { useCallback, useRef } from 'react';

export const RECLICK_GUARD_MS = 500;

/** Ignores repeated triggers within `ms` (SPEC §9: a button is held for 500 ms by default). */
export function useReclickGuard<Args extends unknown[]>(
  action: (...args: Args) => void,
  ms: number = RECLICK_GUARD_MS,
) {
  const last = useRef(0);
  return useCallback(
    (...args: Args) => {
      const now = Date.now();
      if (now - last.current < ms) return;
      last.current = now;
      action(...args);
    },
    [action, ms],
  );
}
