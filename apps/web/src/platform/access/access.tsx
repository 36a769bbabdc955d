import type { ReactNode } from 'react';
import { useSessionStore } from '../session/session.store.ts';

/** Permission checks of SPEC §6 against the session's button permissions (buttons, authBtnList, own list). */
function canAll(granted: readonly string[], required: readonly string[]): boolean {
  const set = new Set(granted);
  return required.every((permission) => set.has(permission));
}

/** Any-of: a `true` entry grants access on its own. */
export function canAny(granted: readonly string[], required: readonly (string | boolean)[]): boolean {
  if (required.includes(true)) return true;
  const set = new Set(granted);
  return required.some((permission) => typeof permission === 'string' && set.has(permission));
}

export function useCan() {
  const buttons = useSessionStore((state) => state.buttons);
  return {
    can: (permission: string) => buttons.includes(permission),
    canAny: (permissions: readonly (string | boolean)[]) => canAny(buttons, permissions),
    canAll: (permissions: readonly string[]) => canAll(buttons, permissions),
  };
}

/** Renders its children only with the permission; without it nothing reaches the DOM. */
export function Auth({ value, children }: { value: string; children: ReactNode }) {
  const { can } = useCan();
  return can(value) ? children : null;
}

export function AuthAny({ value, children }: { value: readonly (string | boolean)[]; children: ReactNode }) {
  const { canAny: any } = useCan();
  return any(value) ? children : null;
}

export function AuthAll({ value, children }: { value: readonly string[]; children: ReactNode }) {
  const { canAll: all } = useCan();
  return all(value) ? children : null;
}
