import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App, message } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { RECLICK_GUARD_MS } from '../../components/use-reclick-guard.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { loginApi } from './login.api.ts';
import LoginPage from './login.page.tsx';

vi.mock('../../platform/crypto/password-cipher.ts', () => ({ encryptPassword: () => 'cipher' }));
vi.mock('../../platform/profile/profile.ts', async (original) => ({
  ...(await original<typeof import('../../platform/profile/profile.ts')>()),
  useBranding: () => ({
    profile: undefined,
    systemTitle: '数智',
    systemName: '数智',
    areaName: '',
    unitName: '',
  }),
}));

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 15_000 });

const CAPTCHA = {
  id: 3141592653589,
  img: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC',
};

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/login']}>
        <App>
          <LoginPage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function signIn() {
  // The login config (with the public key) must have arrived: the button is enabled then.
  await waitFor(() => expect(screen.getByTestId('login-submit').hasAttribute('disabled')).toBe(false));
  fireEvent.change(await screen.findByTestId('login-account'), { target: { value: 'admin' } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Wrong@123456' } });
  fireEvent.click(screen.getByTestId('login-submit'));
}

describe('login page', () => {
  afterEach(() => {
    message.destroy();
    vi.restoreAllMocks();
  });

  it('shows the captcha once the server asks for one although it is switched off (D0008)', async () => {
    vi.spyOn(sessionApi, 'loginConfig').mockResolvedValue({
      secondVerEnabled: false,
      captchaEnabled: false,
      publicKey: '04ab',
    });
    const captcha = vi.spyOn(loginApi, 'captcha').mockResolvedValue(CAPTCHA);
    const login = vi.spyOn(loginApi, 'login').mockRejectedValue(new HttpError('验证码错误', 'D0008'));
    renderPage();
    await screen.findByTestId('login-account');
    expect(screen.queryByTestId('login-captcha')).toBeNull();
    expect(captcha).not.toHaveBeenCalled();

    await signIn();
    await waitFor(() => expect(login).toHaveBeenCalledOnce());
    expect(login.mock.calls[0]?.[0]).toMatchObject({ account: 'admin', codeId: undefined, code: undefined });
    expect(await screen.findByTestId('login-captcha')).toBeTruthy();
    await waitFor(() => expect(captcha).toHaveBeenCalled());

    fireEvent.change(screen.getByTestId('login-captcha'), { target: { value: 'ab12' } });
    // The sign-in button is held for 500 ms after a press (SPEC §9); a quick machine gets here sooner.
    await new Promise((resolve) => setTimeout(resolve, RECLICK_GUARD_MS + 50));
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(login).toHaveBeenCalledTimes(2));
    expect(login.mock.calls[1]?.[0]).toMatchObject({ codeId: 3141592653589, code: 'ab12' });
  });

  it('keeps the captcha hidden after other refusals', async () => {
    vi.spyOn(sessionApi, 'loginConfig').mockResolvedValue({
      secondVerEnabled: false,
      captchaEnabled: false,
      publicKey: '04ab',
    });
    const login = vi.spyOn(loginApi, 'login').mockRejectedValue(new HttpError('密码不正确', 'D1000'));
    renderPage();
    await signIn();
    await waitFor(() => expect(login).toHaveBeenCalledOnce());
    expect(screen.queryByTestId('login-captcha')).toBeNull();
  });
});
