import type { ScanLoginStatus } from '@shuzhi/contracts/login-modes';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { scanLoginApi } from './login.api.ts';
import { absoluteScanUrl, ScanLoginView, type ScanState, useScanLogin } from './scan-login-panel.tsx';

const URL_ = 'http://127.0.0.1:5005/scanLogin?id=abc';
const view = (state: ScanState, onRefresh = vi.fn()) =>
  render(
    <App>
      <ScanLoginView state={state} onRefresh={onRefresh} />
    </App>,
  );

describe('scan login view', () => {
  it('shows the QR code while waiting, with the hint', () => {
    view({ phase: 'waiting', url: URL_ });
    expect(screen.getByTestId('scan-panel').dataset.phase).toBe('waiting');
    expect(screen.getByTestId('scan-qrcode').dataset.url).toBe(URL_);
    expect(screen.getByText('请使用已登录的手机扫描二维码')).toBeTruthy();
    expect(screen.queryByTestId('scan-expired')).toBeNull();
    expect(screen.queryByTestId('scan-scanned')).toBeNull();
  });

  it('shows who scanned', () => {
    view({ phase: 'scanned', url: URL_, realName: '系统管理员' });
    expect(screen.getByTestId('scan-scanned').textContent).toContain('系统管理员 已扫码，请在手机上确认登录');
  });

  it('shows the confirmation while signing in', () => {
    view({ phase: 'confirmed', url: URL_, realName: '系统管理员' });
    expect(screen.getByTestId('scan-scanned').textContent).toContain('已确认，正在登录');
  });

  it('offers a refresh when expired or when the code could not be loaded', () => {
    const onRefresh = vi.fn();
    view({ phase: 'expired', url: URL_ }, onRefresh);
    expect(screen.getByTestId('scan-expired').textContent).toContain('二维码已失效');
    fireEvent.click(screen.getByTestId('scan-refresh'));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('reports a failed load', () => {
    view({ phase: 'error' });
    expect(screen.getByTestId('scan-expired').textContent).toContain('二维码获取失败');
  });

  it('puts the absolute page URL in the code', () => {
    expect(absoluteScanUrl('/scanLogin?id=x', 'https://shuzhi.example.gov.cn')).toBe(
      'https://shuzhi.example.gov.cn/scanLogin?id=x',
    );
  });
});

/** Advances fake time step by step, letting React commit (and effects arm their timers) in between. */
async function tick(...steps: number[]) {
  for (const ms of steps) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  }
}

describe('scan login polling', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('polls every 2 s, shows the scan, hands over the tokens once confirmed, and stops when unmounted', async () => {
    vi.useFakeTimers();
    const create = vi
      .spyOn(scanLoginApi, 'create')
      .mockResolvedValue({ id: 't1', url: '/scanLogin?id=t1', expireSeconds: 120 });
    const answers: ScanLoginStatus[] = [
      { status: 'waiting' },
      { status: 'scanned', realName: '系统管理员' },
      { status: 'confirmed', realName: '系统管理员', accessToken: 'a', refreshToken: 'r', isDefPwd: false },
    ];
    const status = vi
      .spyOn(scanLoginApi, 'status')
      .mockImplementation(async () => answers.shift() ?? { status: 'expired' });
    const onTokens = vi.fn(async () => true);
    const { result, unmount } = renderHook(() => useScanLogin(onTokens));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(create).toHaveBeenCalledOnce();
    expect(result.current.state.phase).toBe('waiting');
    expect(result.current.state.url).toBe(`${window.location.origin}/scanLogin?id=t1`);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(status).toHaveBeenCalledTimes(1);
    expect(result.current.state.phase).toBe('waiting');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(result.current.state).toMatchObject({ phase: 'scanned', realName: '系统管理员' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(result.current.state.phase).toBe('confirmed');
    expect(onTokens).toHaveBeenCalledWith({
      accessToken: 'a',
      refreshToken: 'r',
      isDefPwd: false,
      isUpdatePwd: false,
    });

    // Confirmed: no more polling; and after unmount nothing either.
    const calls = status.mock.calls.length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(status.mock.calls.length).toBe(calls);
    unmount();
  });

  it('stops polling when the tab is left', async () => {
    vi.useFakeTimers();
    vi.spyOn(scanLoginApi, 'create').mockResolvedValue({
      id: 't2',
      url: '/scanLogin?id=t2',
      expireSeconds: 120,
    });
    const status = vi.spyOn(scanLoginApi, 'status').mockResolvedValue({ status: 'waiting' });
    const { unmount } = renderHook(() => useScanLogin(vi.fn()));
    await tick(0, 2000, 2000);
    expect(status).toHaveBeenCalledTimes(2);
    unmount();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(status).toHaveBeenCalledTimes(2);
  });

  it('turns expired on its own once the ticket outlives its time', async () => {
    vi.useFakeTimers();
    vi.spyOn(scanLoginApi, 'create').mockResolvedValue({
      id: 't3',
      url: '/scanLogin?id=t3',
      expireSeconds: 3,
    });
    vi.spyOn(scanLoginApi, 'status').mockResolvedValue({ status: 'waiting' });
    const { result } = renderHook(() => useScanLogin(vi.fn()));
    await tick(0, 2000, 2000);
    expect(result.current.state.phase).toBe('expired');
  });
});
