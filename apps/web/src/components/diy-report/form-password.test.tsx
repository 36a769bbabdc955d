import { act, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { isFormPasswordVerified, markFormPasswordVerified, useFormPasswordPrompt } from './form-password.tsx';

const post = vi.hoisted(() => vi.fn());
vi.mock('../../platform/http/http.ts', () => ({ http: { post, get: vi.fn() } }));
vi.mock('../../platform/session/session.api.ts', () => ({
  sessionApi: { loginConfig: async () => ({ publicKey: 'pk' }) },
}));
vi.mock('../../platform/crypto/password-cipher.ts', () => ({
  encryptPassword: (text: string, key: string) => `enc(${text},${key})`,
}));

// The machine is shared: give antd's dialogs time to appear.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

function Harness() {
  const { prompt, contextHolder } = useFormPasswordPrompt();
  const [outcome, setOutcome] = useState('none');
  return (
    <>
      <button type="button" onClick={async () => setOutcome(String(await prompt(42, '企业用工情况月报')))}>
        open
      </button>
      <span data-testid="outcome">{outcome}</span>
      {contextHolder}
    </>
  );
}

const input = () => screen.findByTestId('form-pwd-input');
const outcome = () => screen.getByTestId('outcome').textContent;

async function openPrompt() {
  render(
    <App>
      <Harness />
    </App>,
  );
  fireEvent.click(screen.getByText('open'));
  return input();
}

function pressEnter(element: HTMLElement) {
  fireEvent.keyDown(element, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(element, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

describe('useFormPasswordPrompt', () => {
  const spies = {
    info: vi.spyOn(feedback, 'info'),
    warning: vi.spyOn(feedback, 'warning'),
    success: vi.spyOn(feedback, 'success'),
    error: vi.spyOn(feedback, 'error'),
  };
  beforeEach(() => {
    post.mockReset();
    window.sessionStorage.clear();
    for (const spy of Object.values(spies)) spy.mockClear();
  });
  afterEach(() => {
    window.sessionStorage.clear();
  });

  it('shows the placeholder, the form title and a show/hide toggle', async () => {
    const field = await openPrompt();
    expect(field.getAttribute('placeholder')).toBe('请输入表单密码长度在6到12个字符');
    expect(field.getAttribute('type')).toBe('password');
    expect(screen.getByText('「企业用工情况月报」设置了表单密码，请输入后继续')).toBeTruthy();
    const toggle = document.querySelector('.ant-input-password-icon');
    expect(toggle).toBeTruthy();
    fireEvent.click(toggle as Element);
    expect(field.getAttribute('type')).toBe('text');
  });

  it('submitting empty warns 请输入表单密码 and says 密码不能为空, without a request', async () => {
    const field = await openPrompt();
    pressEnter(field);
    expect(await screen.findByText('密码不能为空')).toBeTruthy();
    expect(spies.warning).toHaveBeenCalledWith('请输入表单密码');
    fireEvent.click(screen.getByTestId('form-pwd-ok'));
    await waitFor(() => expect(spies.warning).toHaveBeenCalledTimes(2));
    expect(post).not.toHaveBeenCalled();
    expect(outcome()).toBe('none');
  });

  it('refuses a password shorter than 6 characters with 密码长度6~12个字符', async () => {
    const field = await openPrompt();
    fireEvent.change(field, { target: { value: 'abc' } });
    pressEnter(field);
    expect(await screen.findByText('密码长度6~12个字符')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    expect(field.getAttribute('maxlength')).toBe('12');
  });

  it('sends the encrypted password on Enter, shows 验证成功 and resolves true', async () => {
    post.mockResolvedValue(null);
    const field = await openPrompt();
    fireEvent.change(field, { target: { value: 'Form#2026' } });
    pressEnter(field);
    await waitFor(() => expect(outcome()).toBe('true'));
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith(
      '/api/diyTable/CheckFormPwd',
      { tableId: 42, password: 'enc(Form#2026,pk)' },
      { silent: true },
    );
    expect(spies.success).toHaveBeenCalledWith('验证成功');
    expect(isFormPasswordVerified(42)).toBe(true);
    expect(isFormPasswordVerified(43)).toBe(false);
  });

  it('shows the server message on any other answer and stays open for another try', async () => {
    post.mockRejectedValueOnce(new HttpError('表单密码不正确', 'F1005'));
    const field = await openPrompt();
    fireEvent.change(field, { target: { value: 'wrong-1' } });
    pressEnter(field);
    await waitFor(() => expect(spies.error).toHaveBeenCalledWith('表单密码不正确'));
    expect(outcome()).toBe('none');
    expect(isFormPasswordVerified(42)).toBe(false);

    post.mockRejectedValueOnce(new HttpError('表单密码错误次数过多，请10分钟后再试', 'F1006'));
    pressEnter(await input());
    await waitFor(() => expect(spies.error).toHaveBeenCalledWith('表单密码错误次数过多，请10分钟后再试'));
    expect(outcome()).toBe('none');
  });

  it('cancelling shows 你已关闭此操作 and resolves false', async () => {
    await openPrompt();
    fireEvent.click(screen.getByTestId('form-pwd-cancel'));
    await waitFor(() => expect(outcome()).toBe('false'));
    expect(spies.info).toHaveBeenCalledWith('你已关闭此操作');
    expect(post).not.toHaveBeenCalled();
  });

  it('sends no second request while one is pending', async () => {
    let answer: (value: null) => void = () => undefined;
    post.mockImplementation(
      () =>
        new Promise<null>((resolve) => {
          answer = resolve;
        }),
    );
    const field = await openPrompt();
    fireEvent.change(field, { target: { value: 'Form#2026' } });
    pressEnter(field);
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    pressEnter(field);
    fireEvent.click(screen.getByTestId('form-pwd-ok'));
    pressEnter(field);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(post).toHaveBeenCalledTimes(1);
    await act(async () => answer(null));
    await waitFor(() => expect(outcome()).toBe('true'));
  });

  it('remembers a verification per form in the session storage', () => {
    expect(isFormPasswordVerified(7)).toBe(false);
    markFormPasswordVerified(7);
    expect(isFormPasswordVerified(7)).toBe(true);
    expect(isFormPasswordVerified(8)).toBe(false);
  });
});
