import type { UserInfo } from '@shuzhi/contracts/auth';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useSessionStore } from '../platform/session/session.store.ts';
import { DashboardGate, HomeIndex } from './home-route.tsx';

function signedInAs(accountType: number) {
  const userInfo = { id: 1, account: 'u', accountType } as UserInfo;
  useSessionStore.getState().setSession({ userInfo, menus: [], buttons: [] });
}

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/">
          <Route index element={<HomeIndex />} />
          <Route
            path="dashboard"
            element={
              <DashboardGate>
                <div data-testid="at">dashboard</div>
              </DashboardGate>
            }
          />
          <Route path="enterprise" element={<div data-testid="at">enterprise</div>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => useSessionStore.getState().clear());

describe('the home page of the signed-in user (issue 16 §4)', () => {
  it('is the enterprise portal for an enterprise (666) account, from / and from /dashboard', async () => {
    signedInAs(666);
    const view = renderAt('/');
    expect((await screen.findByTestId('at')).textContent).toBe('enterprise');
    view.unmount();
    renderAt('/dashboard');
    expect((await screen.findByTestId('at')).textContent).toBe('enterprise');
  });

  it('is /dashboard for staff', async () => {
    for (const type of [777, 888, 999]) {
      signedInAs(type);
      const view = renderAt('/');
      expect((await screen.findByTestId('at')).textContent).toBe('dashboard');
      view.unmount();
    }
  });
});
