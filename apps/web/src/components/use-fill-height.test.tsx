import { render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFillHeight, visible } from './use-fill-height.ts';

function Probe({ min, spare }: { min: number; spare?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const height = useFillHeight(ref, { min, spare });
  return (
    <div ref={ref} data-testid="probe">
      {height ?? 'none'}
    </div>
  );
}

/** Puts every element's top at `top` (jsdom lays nothing out). */
function layout(top: number, innerHeight: number) {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
    top,
    bottom: top,
    left: 0,
    right: 0,
    width: 0,
    height: 0,
    x: 0,
    y: top,
    toJSON: () => ({}),
  });
  vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(innerHeight);
}

afterEach(() => vi.restoreAllMocks());

describe('useFillHeight', () => {
  it('fills from the top of the element to the bottom of the window, less what is left below', () => {
    layout(100, 900);
    render(<Probe min={300} spare={16} />);
    expect(screen.getByTestId('probe').textContent).toBe('784');
  });

  it('keeps to its minimum on a short window', () => {
    layout(100, 400);
    render(<Probe min={520} />);
    expect(screen.getByTestId('probe').textContent).toBe('520');
  });

  it('measures again when the window changes size', () => {
    layout(100, 900);
    render(<Probe min={300} />);
    expect(screen.getByTestId('probe').textContent).toBe('800');
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(700);
    window.dispatchEvent(new Event('resize'));
    return vi.waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('600'));
  });

  it('does not measure a page kept alive behind another tab', () => {
    layout(100, 900);
    render(
      <div style={{ display: 'none' }}>
        <Probe min={300} />
      </div>,
    );
    expect(visible(screen.getByTestId('probe'))).toBe(false);
    expect(screen.getByTestId('probe').textContent).toBe('none');
  });
});
