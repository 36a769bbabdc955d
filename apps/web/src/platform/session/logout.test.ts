import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const clearSession = vi.hoisted(() => vi.fn());
const serverLogout = vi.hoisted(() => vi.fn());
vi.mock('../http/http.ts', () => ({ clearSession }));
vi.mock('./session.api.ts', () => ({ sessionApi: { logout: serverLogout } }));

const { LOGOUT_WAIT_MS, logout } = await import('./logout.ts');

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('logout', () => {
  it('forgets the session once the server has revoked it', async () => {
    serverLogout.mockResolvedValue(undefined);
    await logout();
    expect(serverLogout).toHaveBeenCalledTimes(1);
    expect(clearSession).toHaveBeenCalledTimes(1);
  });

  it('does not keep the user waiting on a server that does not answer', async () => {
    serverLogout.mockImplementation(() => new Promise(() => undefined));
    let done = false;
    const signingOut = logout().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(LOGOUT_WAIT_MS - 1);
    expect(done).toBe(false);
    expect(clearSession).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await signingOut;
    expect(clearSession).toHaveBeenCalledTimes(1);
  });
});
