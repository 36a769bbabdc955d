import { type RefObject, useLayoutEffect, useState } from 'react';

/** Whether this element is on screen (a kept-alive page hidden behind another tab is not). */
export const visible = (element: HTMLElement | null) =>
  !!element && !element.closest('[style*="display: none"]');

/**
 * The height that takes an element from its top to the bottom of the window, less what the layout shows
 * below the page (padding, footer), so the window does not scroll and the element scrolls inside: at least
 * `min`; `spare` is left below when the element is not inside the layout's page content. Measured again when
 * the window or the content area changes size, never while the page is hidden.
 */
export function useFillHeight(
  root: RefObject<HTMLElement | null>,
  { min, spare = 0 }: { min: number; spare?: number },
): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const element = root.current;
    if (!element) return;
    const page = element.closest('[data-testid="page-content"]');
    const content = page?.parentElement ?? null;
    const measure = () => {
      if (!visible(element)) return;
      const top = element.getBoundingClientRect().top + window.scrollY;
      const below =
        page && content
          ? content.getBoundingClientRect().bottom - page.getBoundingClientRect().bottom
          : spare;
      setHeight(Math.max(min, Math.floor(window.innerHeight - top - below)));
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (content) observer?.observe(content);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [root, min, spare]);
  return height;
}
