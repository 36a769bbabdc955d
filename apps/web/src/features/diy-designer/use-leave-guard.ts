import { useContext, useEffect, useRef } from 'react';
import { UNSAFE_NavigationContext } from 'react-router';

type To = string | { pathname?: string };
const pathOf = (to: To): string | undefined => (typeof to === 'string' ? to.split(/[?#]/)[0] : to.pathname);

/** Marks the extra history entry that catches the browser's Back button. */
const MARK = 'shuzhiLeaveGuard';
const onMark = () => Boolean((window.history.state as Record<string, unknown> | null)?.[MARK]);
/** A guard that was taken down is going back off its extra entry (history moves asynchronously). */
let dropping = false;

/**
 * While `when` holds, leaving the page asks first: in-app navigation to another path goes through
 * `confirm` (the app uses a plain BrowserRouter, so the navigator's push/replace are wrapped), closing or
 * reloading the browser tab raises the browser's own question (beforeunload), and the browser's Back button
 * asks too: history moves before the app hears of it, so an extra entry of this same address sits on top,
 * Back lands on the page itself underneath and the question is asked there. Leaving goes back past both
 * entries; staying puts the extra entry back.
 */
export function useLeaveGuard(when: boolean, confirm: (proceed: () => void) => void): void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  // The guard is set up when `when` turns on and taken down when it turns off, not on every new `confirm`.
  const ask = useRef(confirm);
  ask.current = confirm;
  useEffect(() => {
    const confirm = (proceed: () => void) => ask.current(proceed);
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    const { push, replace } = navigator;
    const guard =
      (original: typeof push): typeof push =>
      (to, ...rest) => {
        const target = pathOf(to as To);
        if (target === undefined || target === window.location.pathname) {
          original.call(navigator, to, ...rest);
          return;
        }
        confirm(() => original.call(navigator, to, ...rest));
      };
    navigator.push = guard(push);
    navigator.replace = guard(replace);

    const path = window.location.pathname;
    const mark = () =>
      window.history.pushState({ ...window.history.state, [MARK]: true }, '', window.location.href);
    if (!onMark()) mark();
    let leaving = false;
    const onPopState = () => {
      if (leaving || window.location.pathname !== path) return;
      // The guard before this one (the same page set up again) just left its entry: take its place.
      if (dropping) {
        if (!onMark()) mark();
        return;
      }
      if (onMark()) return;
      mark();
      confirm(() => {
        leaving = true;
        window.history.go(-2);
      });
    };
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('popstate', onPopState);
      navigator.push = push;
      navigator.replace = replace;
      // Saved (or no longer guarded) while on the page: drop the extra entry so Back works at once.
      if (!leaving && onMark() && window.location.pathname === path) {
        dropping = true;
        window.addEventListener('popstate', () => setTimeout(() => (dropping = false)), { once: true });
        window.history.back();
      }
    };
  }, [when, navigator]);
}
