import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useOpPasswordPrompt } from './use-op-password-prompt.tsx';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../platform/http/http.ts', () => ({ http: { post } }));
vi.mock('../../platform/session/session.api.ts', () => ({
  sessionApi: { loginConfig: async () => ({ publicKey: 'pk' }) },
}));
vi.mock('../../platform/crypto/password-cipher.ts', () => ({
  encryptPassword: (text: string, key: string) => `enc(${text},${key})`,
}));

function Harness() {
  const [ask, dialog] = useOpPasswordPrompt();
  const [outcome, setOutcome] = useState('none');
  return (
    <>
      <button type="button" onClick={async () => setOutcome(String(await ask()))}>
        guarded
      </button>
      <span data-testid="outcome">{outcome}</span>
      {dialog}
    </>
  );
}

const renderHarness = () =>
  render(
    <MemoryRouter>
      <App>
        <Harness />
      </App>
    </MemoryRouter>,
  );

const typeAndSubmit = async (value: string) => {
  fireEvent.change(await screen.findByTestId('op-password-prompt-input'), { target: { value } });
  fireEvent.keyDown(screen.getByTestId('op-password-prompt-input'), {
    key: 'Enter',
    code: 'Enter',
    keyCode: 13,
  });
};

describe('useOpPasswordPrompt', () => {
  // A block body: a returned function would run as the test's teardown.
  beforeEach(() => {
    post.mockReset();
  });

  it('resolves with the cipher once the server accepted it', async () => {
    post.mockResolvedValue(true);
    renderHarness();
    fireEvent.click(screen.getByText('guarded'));
    await typeAndSubmit('Op#2026');
    await waitFor(() => expect(screen.getByTestId('outcome').textContent).toBe('enc(Op#2026,pk)'));
    expect(post).toHaveBeenCalledWith(
      '/api/sysUser/checkOpPassword',
      { opPassword: 'enc(Op#2026,pk)' },
      { silent: true },
    );
  });

  it('keeps the dialog open with the message when the password is wrong', async () => {
    post.mockImplementation(async () => {
      throw new HttpError('操作密码不正确', 'D1011');
    });
    renderHarness();
    fireEvent.click(screen.getByText('guarded'));
    await typeAndSubmit('wrong');
    expect(await screen.findByText('操作密码不正确')).toBeTruthy();
    expect(screen.getByTestId('outcome').textContent).toBe('none');
  });

  it('offers to set one when none is set, and resolves null on cancel', async () => {
    post.mockImplementation(async () => {
      throw new HttpError('尚未设置操作密码', 'D1012');
    });
    renderHarness();
    fireEvent.click(screen.getByText('guarded'));
    await typeAndSubmit('whatever');
    expect(await screen.findByText('您尚未设置操作密码')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.getByTestId('outcome').textContent).toBe('null'));
  });
});
