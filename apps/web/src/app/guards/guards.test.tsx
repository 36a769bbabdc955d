import type { LoginResult, UserInfo } from '@shuzhi/contracts/auth';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { MemoryRouter, Route, Routes } from 'react-router';
import { type LoginContext, useLoginFlow } from '../../features/auth/use-login-flow.ts';
import { clearSession } from '../../platform/http/http.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { storageKey, tokens } from '../../platform/storage/storage.ts';
import { GuestOnly } from './guards.tsx';

/** The account type of the user signing in (777 normal, 666 an enterprise member). */
const account = vi.hoisted(() => ({ type: 777 }));

// Sign-in loads the user's info and menus from the server; here the user has some menus.
vi.mock('../../platform/session/session-loader.ts', async () => {
  const { useSessionStore } = await import('../../platform/session/session.store.ts');
  return {
    loadSession: async () => {
      const userInfo = { id: 1, account: 'u', accountType: account.type } as UserInfo;
      useSessionStore.getState().setSession({ userInfo, menus: [], buttons: [] });
      return { menuCount: 3 };
    },
  };
});

/** An unexpired token; the claims carry the account type but no login type (REFERENCE), as the server's. */
function fakeToken(): string {
  const payload = btoa(
    JSON.stringify({
      UserId: 1,
      SessionId: 7,
      AccountType: account.type,
      exp: Math.floor(Date.now() / 1000) + 3600,
    }),
  );
  return `e30.${payload.replace(/=+$/, '')}.sig`;
}

const result = (): LoginResult =>
  ({
    accessToken: fakeToken(),
    refreshToken: fakeToken(),
    isDefPwd: false,
    isUpdatePwd: false,
  }) as LoginResult;

function SignIn({ context }: { context: LoginContext }) {
  const completeLogin = useLoginFlow();
  return (
    <button type="button" data-testid="sign-in" onClick={() => void completeLogin(result(), context)}>
      sign in
    </button>
  );
}

function renderAt(url: string, context: LoginContext = { loginType: null, openType: null, redirect: null }) {
  return render(
    <App>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route
            path="/login"
            element={
              <GuestOnly>
                <SignIn context={context} />
              </GuestOnly>
            }
          />
          <Route path="/dashboard" element={<div data-testid="at">dashboard</div>} />
          <Route path="/diyReport" element={<div data-testid="at">diyReport</div>} />
          <Route path="/enterprise/reportClassify" element={<div data-testid="at">reportClassify</div>} />
          <Route path="/enterprise" element={<div data-testid="at">enterprise</div>} />
        </Routes>
      </MemoryRouter>
    </App>,
  );
}

async function signIn(context: LoginContext, lands = context.loginType === 9 ? 'diyReport' : 'dashboard') {
  const view = renderAt('/login', context);
  await act(async () => {
    fireEvent.click(screen.getByTestId('sign-in'));
  });
  expect((await screen.findByTestId('at')).textContent).toBe(lands);
  view.unmount();
}

beforeEach(() => {
  window.localStorage.clear();
  account.type = 777;
});
afterEach(() => {
  clearSession();
  useSessionStore.getState().clear();
});

/** A reload: nothing in memory, only the stored session. */
function reload() {
  useSessionStore.getState().clear();
}

describe('/login for a signed-in user (SPEC §2)', () => {
  it('sends a type-9 session back to /diyReport after a reload, whatever the URL says', async () => {
    await signIn({ loginType: 9, openType: null, redirect: null });
    expect(window.localStorage.getItem(storageKey('login-type'))).toBe('9');
    // A reload: nothing in memory, only the stored session.
    renderAt('/login?type=1');
    expect((await screen.findByTestId('at')).textContent).toBe('diyReport');
  });

  it('sends a type-9 session in the header-less iframe to the report list', async () => {
    await signIn({ loginType: 9, openType: 'iframenoheader', redirect: null }, 'reportClassify');
    renderAt('/login?openType=iframenoheader');
    expect((await screen.findByTestId('at')).textContent).toBe('reportClassify');
  });

  it('sends an account-login session to /dashboard', async () => {
    await signIn({ loginType: null, openType: null, redirect: null });
    expect(window.localStorage.getItem(storageKey('login-type'))).toBeNull();
    renderAt('/login');
    expect((await screen.findByTestId('at')).textContent).toBe('dashboard');
  });

  it('forgets the type with the session: signed out, /login shows the login page', async () => {
    await signIn({ loginType: 9, openType: null, redirect: null });
    clearSession();
    expect(window.localStorage.getItem(storageKey('login-type'))).toBeNull();
    expect(tokens.loginType()).toBeNull();
    renderAt('/login');
    expect(screen.getByTestId('sign-in')).toBeTruthy();
  });
});

describe('an enterprise (666) account lands on its portal (issue 16 §4)', () => {
  beforeEach(() => {
    account.type = 666;
  });

  it('from the account form, and again on /login after a reload', async () => {
    await signIn({ loginType: null, openType: null, redirect: null }, 'enterprise');
    reload();
    renderAt('/login');
    expect((await screen.findByTestId('at')).textContent).toBe('enterprise');
  });

  it('from login type 9 too, and on the report columns in the header-less iframe', async () => {
    await signIn({ loginType: 9, openType: null, redirect: null }, 'enterprise');
    reload();
    const view = renderAt('/login?type=9');
    expect((await screen.findByTestId('at')).textContent).toBe('enterprise');
    view.unmount();
    clearSession();
    await signIn({ loginType: 1, openType: 'iframenoheader', redirect: null }, 'reportClassify');
  });

  it('still goes to a page it was sent to login from', async () => {
    await signIn({ loginType: null, openType: null, redirect: '/diyReport' }, 'diyReport');
  });
});
