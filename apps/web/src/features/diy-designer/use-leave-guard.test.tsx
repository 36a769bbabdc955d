import { act, render, waitFor } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLeaveGuard } from './use-leave-guard.ts';

let setDirty: (dirty: boolean) => void = () => {};

function Guarded({ confirm }: { confirm: (proceed: () => void) => void }) {
  const [dirty, set] = useState(true);
  setDirty = set;
  useLeaveGuard(dirty, confirm);
  return <span data-testid="where">{useLocation().pathname}</span>;
}

/** History moves asynchronously in jsdom: wait for the popstate it fires. */
const traverse = (move: () => void) =>
  new Promise<void>((resolve) => {
    window.addEventListener('popstate', () => resolve(), { once: true });
    move();
  });

describe('useLeaveGuard and the browser Back button', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('asks on Back, stays when the user stays, and leaves past the page when they confirm', async () => {
    window.history.pushState(null, '', '/list');
    window.history.pushState(null, '', '/designer?id=1');
    const asked: (() => void)[] = [];
    const confirm = vi.fn((proceed: () => void) => asked.push(proceed));
    render(
      <BrowserRouter>
        <Guarded confirm={confirm} />
      </BrowserRouter>,
    );

    await act(() => traverse(() => window.history.back()));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/designer');
    expect(window.location.search).toBe('?id=1');

    // Stayed: a second Back asks again.
    await act(() => traverse(() => window.history.back()));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(2));
    expect(window.location.pathname).toBe('/designer');

    await act(() => traverse(() => asked[1]?.()));
    await waitFor(() => expect(window.location.pathname).toBe('/list'));
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('survives being set up twice (StrictMode) without asking before Back', async () => {
    window.history.pushState(null, '', '/list');
    window.history.pushState(null, '', '/designer');
    const confirm = vi.fn();
    const popped = traverse(() => undefined);
    render(
      <StrictMode>
        <BrowserRouter>
          <Guarded confirm={confirm} />
        </BrowserRouter>
      </StrictMode>,
    );
    // The first setup's entry is dropped and the second setup takes its place.
    await act(() => popped);
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(confirm).not.toHaveBeenCalled();
    await act(() => traverse(() => window.history.back()));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/designer');
  });

  it('drops its extra entry once there is nothing to lose, so Back leaves at once', async () => {
    window.history.pushState(null, '', '/list');
    window.history.pushState(null, '', '/designer');
    const confirm = vi.fn();
    render(
      <BrowserRouter>
        <Guarded confirm={confirm} />
      </BrowserRouter>,
    );
    // Saved: the effect's cleanup goes back off the extra entry once React has rendered.
    const popped = traverse(() => undefined);
    act(() => setDirty(false));
    await act(() => popped);
    expect(window.location.pathname).toBe('/designer');
    await act(() => traverse(() => window.history.back()));
    await waitFor(() => expect(window.location.pathname).toBe('/list'));
    expect(confirm).not.toHaveBeenCalled();
  });
});
