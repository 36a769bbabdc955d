import { type ReactNode, useLayoutEffect, useRef } from 'react';

/**
 * rc-table copies every column title into a hidden measuring row (`aria-hidden`) when a table scrolls
 * sideways or has a fixed header; a copy of the select-all checkbox there stays focusable, which WCAG 4.1.2
 * (axe's aria-hidden-focus) forbids. This wrapper makes its own copy inside that row inert.
 */
function InertInMeasureRow({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element?.closest('.ant-table-measure-row')) element.inert = true;
  }, []);
  return <span ref={ref}>{children}</span>;
}

/** `rowSelection.columnTitle` for a table with a select-all checkbox: the checkbox as antd draws it. */
export const selectionTitle = (checkbox: ReactNode): ReactNode => (
  <InertInMeasureRow>{checkbox}</InertInMeasureRow>
);
