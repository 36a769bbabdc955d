import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { sm2 } from 'sm-crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useLockScreen } from '../../platform/session/lock-screen.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { tokens } from '../../platform/storage/storage.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';

const keys = sm2.generateKeyPairHex();
const post = vi.hoisted(() => vi.fn());
const realtime = vi.hoisted(() => ({ handlers: new Map<string, (payload: unknown) => void>() }));
const config = vi.hoisted(() => ({ autoLogoutMinutes: '0', logout: vi.fn(async () => undefined) }));

vi.mock('../../platform/http/http.ts', () => ({
  http: { post, get: vi.fn() },
  clearSession: () => {
    window.localStorage.clear();
  },
}));
vi.mock('../../platform/session/session.api.ts', () => ({
  sessionApi: {
    loginConfig: async () => ({ publicKey: keys.publicKey, captchaEnabled: false, secondVerEnabled: false }),
    clientConfig: async () => [{ code: 'AutoLogoutTime', value: config.autoLogoutMinutes }],
    logout: config.logout,
  },
}));
vi.mock('../../platform/realtime/realtime.ts', () => ({
  connectRealtime: vi.fn(),
  disconnectRealtime: vi.fn(),
  reportActivity: vi.fn(),
  useRealtimeEvent: (event: string, handler: (payload: unknown) => void) => {
    realtime.handlers.set(event, handler);
  },
}));

const { LockScreen } = await import('./lock-screen.tsx');
const { SessionGuards, forceOfflineMessageKey } = await import('./session-guards.tsx');

/** A token whose payload names session 42 (the lock belongs to the session). */
function fakeToken(sessionId = 42): string {
  const payload = btoa(JSON.stringify({ SessionId: sessionId, exp: 4_102_444_800 }))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `e30.${payload}.sig`;
}

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Routes>
            <Route path="/dashboard" element={<div data-testid="layout-shell">{children}</div>} />
            <Route path="/login" element={<div data-testid="login-page" />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  tokens.save(fakeToken());
  useSessionStore.setState({
    userInfo: { account: 'hpleader', realName: '王区长', avatar: null } as never,
  });
  useLockScreen.getState().unlock();
  post.mockReset();
});
afterEach(() => {
  vi.useRealTimers();
  useThemeStore.getState().reset();
  config.autoLogoutMinutes = '0';
  config.logout.mockClear();
});

describe('lock screen', () => {
  it('shows nothing until locked, then hides the app behind the user, the time and a password box', () => {
    render(wrap(<LockScreen onLogout={() => undefined} />));
    expect(screen.queryByTestId('lock-screen')).toBeNull();
    act(() => useLockScreen.getState().lock());
    expect(screen.getByTestId('lock-screen')).toBeTruthy();
    expect(screen.getByTestId('lock-screen-name').textContent).toBe('王区长');
    expect(screen.getByTestId('lock-screen-clock').textContent).toMatch(/^\d\d:\d\d$/);
    expect(screen.getByTestId('layout-shell').hasAttribute('inert')).toBe(true);
  });

  it('stays locked across a reload of the same session, not into a new sign-in', () => {
    act(() => useLockScreen.getState().lock());
    useLockScreen.setState({ locked: false });
    useLockScreen.getState().sync();
    expect(useLockScreen.getState().locked).toBe(true);
    tokens.save(fakeToken(43));
    useLockScreen.getState().sync();
    expect(useLockScreen.getState().locked).toBe(false);
  });

  it('keeps the lock on a wrong password and lifts it on the right one (sent SM2-encrypted)', async () => {
    render(wrap(<LockScreen onLogout={() => undefined} />));
    act(() => useLockScreen.getState().lock());
    post.mockRejectedValueOnce(new HttpError('密码不正确', 'D1000'));
    fireEvent.change(screen.getByTestId('lock-screen-password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByTestId('lock-screen-unlock'));
    expect(await screen.findByText('密码不正确')).toBeTruthy();
    expect(useLockScreen.getState().locked).toBe(true);

    post.mockResolvedValueOnce(null);
    fireEvent.change(screen.getByTestId('lock-screen-password'), { target: { value: 'Shuzhi@2026' } });
    fireEvent.click(screen.getByTestId('lock-screen-unlock'));
    await waitFor(() => expect(screen.queryByTestId('lock-screen')).toBeNull());
    expect(useLockScreen.getState().locked).toBe(false);
    const [url, body] = post.mock.calls.at(-1) as [string, { password: string }];
    expect(url).toBe('/api/sysAuth/unLockScreen');
    expect(body.password).not.toContain('Shuzhi');
    expect(sm2.doDecrypt(body.password, keys.privateKey, 1)).toBe('Shuzhi@2026');
    expect(screen.getByTestId('layout-shell').hasAttribute('inert')).toBe(false);
  });
});

describe('session guards', () => {
  it('locks by itself after lockScreenTime idle minutes when the lock screen is on', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    useThemeStore.getState().update({ isLockScreen: true, lockScreenTime: 2 });
    render(wrap(<SessionGuards />));
    await act(async () => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.queryByTestId('lock-screen')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTestId('lock-screen')).toBeTruthy();
  });

  it('does not lock while the lock screen is off', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    render(wrap(<SessionGuards />));
    await act(async () => {
      vi.advanceTimersByTime(120 * 60_000);
    });
    expect(screen.queryByTestId('lock-screen')).toBeNull();
  });

  it('signs out after AutoLogoutTime idle minutes; activity postpones it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    config.autoLogoutMinutes = '3';
    render(wrap(<SessionGuards />));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2 * 60_000);
    });
    fireEvent.keyDown(window, { key: 'a' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2 * 60_000);
    });
    expect(config.logout).not.toHaveBeenCalled();
    expect(screen.queryByTestId('login-page')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000 + 1_000);
    });
    expect(config.logout).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('login-page')).toBeTruthy();
    expect(tokens.access()).toBeNull();
  });

  it('leaves for the login page with a warning when forced offline', async () => {
    render(wrap(<SessionGuards />));
    act(() => realtime.handlers.get('forceOffline')?.({ reason: 'single_login', code: 'D1025' }));
    expect(await screen.findByTestId('login-page')).toBeTruthy();
    expect(await screen.findByText('该账号已在其他地方登录，请重新登录')).toBeTruthy();
    expect(tokens.access()).toBeNull();
  });

  it('words each reason', () => {
    expect(forceOfflineMessageKey({ reason: 'logout' })).toBeNull();
    expect(forceOfflineMessageKey({ reason: 'force_offline' })).toBe('sessionGuard.forcedOffline');
    expect(forceOfflineMessageKey({ reason: 'user_disabled' })).toBe('sessionGuard.accountDisabled');
    expect(forceOfflineMessageKey({ reason: 'something_new' })).toBe('sessionGuard.sessionEnded');
  });
});
