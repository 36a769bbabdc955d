import { useContext, useEffect } from 'react';
import { UNSAFE_NavigationContext } from 'react-router';

type To = string | { pathname?: string };
const pathOf = (to: To): string | undefined => (typeof to === 'string' ? to.split(/[?#]/)[0] : to.pathname);

/**
 * While `when` holds, leaving the page asks first: in-app navigation to another path goes through
 * `confirm` (the app uses a plain BrowserRouter, so the navigator's push/replace are wrapped), and closing or
 * reloading the browser tab raises the browser's own question (beforeunload).
 */
export function useLeaveGuard(when: boolean, confirm: (proceed: () => void) => void): void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  useEffect(() => {
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
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      navigator.push = push;
      navigator.replace = replace;
    };
  }, [when, navigator, confirm]);
}
