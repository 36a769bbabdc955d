import { Tooltip } from 'antd';
import { type CSSProperties, cloneElement, type ReactElement, type ReactNode } from 'react';

type Props = {
  /** Why the control is disabled, shown on hover. */
  reason: ReactNode;
  /** The wrapper's test id: where a test hovers to read the reason. */
  testId: string;
  /** The disabled control (a Button or Switch with `disabled`). */
  children: ReactElement<{ style?: CSSProperties }>;
};

/**
 * A disabled control with the reason in a tooltip. React sends no mouse events to a disabled button, so the
 * wrapper is what the tooltip listens on, and the control lets the pointer through to it.
 */
export function DisabledReason({ reason, testId, children }: Props) {
  return (
    <Tooltip title={reason}>
      <span style={{ display: 'inline-block', cursor: 'not-allowed' }} data-testid={testId}>
        {cloneElement(children, { style: { ...children.props.style, pointerEvents: 'none' } })}
      </span>
    </Tooltip>
  );
}
