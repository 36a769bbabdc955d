import { formDesignSchema } from '@shuzhi/contracts/diy-form';
import type { NoLoginToken } from '@shuzhi/contracts/no-login';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { RECLICK_GUARD_MS } from '../../components/use-reclick-guard.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import ScancodePage, { endingOf } from './scancode.page.tsx';

const api = vi.hoisted(() => ({
  token: vi.fn(),
  design: vi.fn(),
  page: vi.fn(),
  detail: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  captcha: vi.fn(),
}));
vi.mock('./no-login.api.ts', async (original) => ({
  ...(await original<typeof import('./no-login.api.ts')>()),
  noLoginPublicApi: api,
}));
vi.mock('../../platform/profile/profile.ts', () => ({ useBranding: () => ({ systemTitle: '数智' }) }));

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 15_000 });

const scope = (over: Partial<NoLoginToken['scope']> = {}): NoLoginToken => ({
  token: 'tk1',
  expiresIn: 1800,
  scope: {
    linkId: 5,
    title: '路边摊位登记',
    qrType: 'form',
    mode: 'fillMany',
    tableId: 9,
    tableTitle: '摊位登记表',
    recordId: null,
    expireTime: '2026-12-31 10:00:00',
    usesLeft: null,
    ...over,
  },
});
const DESIGN = {
  tableId: 9,
  title: '摊位登记表',
  design: formDesignSchema.parse({
    fields: [
      { id: 'name', type: 'text', label: '摊主姓名', required: true },
      { id: 'qty', type: 'integer', label: '摊位数' },
    ],
  }),
};

function wrap(children: ReactNode, url = '/scancode?QrCodeType=form&code=abc') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <App>{children}</App>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

afterEach(() => {
  vi.useRealTimers();
  vi.resetAllMocks();
});

describe('ScancodePage', () => {
  it('exchanges the code, checks required fields in the browser, files, and offers another with a new token', async () => {
    api.token.mockResolvedValueOnce(scope()).mockResolvedValueOnce({ ...scope(), token: 'tk2' });
    api.design.mockResolvedValue(DESIGN);
    api.add.mockResolvedValue({ id: 77, dataNo: 'TW-0001' });
    vi.useFakeTimers({ toFake: ['Date'] });
    render(wrap(<ScancodePage />));
    await waitFor(() => expect(screen.getByTestId('scancode-title').textContent).toContain('路边摊位登记'));
    expect(api.token).toHaveBeenCalledWith('abc');
    await screen.findByText('摊主姓名');
    fireEvent.click(screen.getByTestId('scancode-submit'));
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')).toBeTruthy());
    expect(api.add).not.toHaveBeenCalled();
    fireEvent.change(document.querySelector('#scancode-name') as HTMLInputElement, {
      target: { value: '王五' },
    });
    // A person takes longer than the guard against double clicks to type the name.
    vi.setSystemTime(Date.now() + RECLICK_GUARD_MS);
    fireEvent.click(screen.getByTestId('scancode-submit'));
    expect((await screen.findByTestId('scancode-done')).textContent).toContain('TW-0001');
    expect(api.add).toHaveBeenCalledWith('tk1', 9, expect.objectContaining({ name: '王五' }), undefined);
    fireEvent.click(screen.getByTestId('scancode-again'));
    await waitFor(() => expect(api.token).toHaveBeenCalledTimes(2));
    expect(await screen.findByTestId('scancode-submit')).toBeTruthy();
  });

  it('shows the records of a view link', async () => {
    api.token.mockResolvedValue(scope({ mode: 'view' }));
    api.design.mockResolvedValue(DESIGN);
    api.page.mockResolvedValue({
      page: 1,
      pageSize: 20,
      total: 1,
      totalPages: 1,
      hasPrevPage: false,
      hasNextPage: false,
      items: [
        {
          id: 3,
          dataNo: 'TW-3',
          values: { name: '赵六', qty: 2 },
          labels: {},
          createTime: '2026-11-01 10:00:00',
        },
      ],
    });
    render(wrap(<ScancodePage />));
    expect(await screen.findByText('赵六')).toBeTruthy();
    expect(screen.getByTestId('scancode-records').textContent).toContain('TW-3');
  });

  it.each([
    ['N1001', 'scancode-expired', '链接已过期'],
    ['N1002', 'scancode-revoked', '链接已撤销'],
    ['N1003', 'scancode-usedUp', '名额已满'],
    ['N1000', 'scancode-invalid', '链接无效'],
    ['N1005', 'scancode-invalid', '链接无效'],
  ])('shows %s as its own state', async (code, testId, text) => {
    api.token.mockRejectedValue(new HttpError('refused', code));
    render(wrap(<ScancodePage />));
    expect((await screen.findByTestId(testId)).textContent).toContain(text);
  });

  it('calls nothing without a code, and ends on a used-up link at submission', async () => {
    const { unmount } = render(wrap(<ScancodePage />, '/scancode?QrCodeType=form'));
    expect(await screen.findByTestId('scancode-invalid')).toBeTruthy();
    expect(api.token).not.toHaveBeenCalled();
    unmount();
    api.token.mockResolvedValue(scope({ mode: 'fillOne' }));
    api.design.mockResolvedValue(DESIGN);
    api.add.mockRejectedValue(new HttpError('used up', 'N1003'));
    render(wrap(<ScancodePage />));
    await screen.findByText('摊主姓名');
    fireEvent.change(document.querySelector('#scancode-name') as HTMLInputElement, {
      target: { value: '王五' },
    });
    fireEvent.click(screen.getByTestId('scancode-submit'));
    expect(await screen.findByTestId('scancode-usedUp')).toBeTruthy();
  });

  it('asks for a captcha when the server does, keeps the values, and sends it with them', async () => {
    api.token.mockResolvedValue(scope());
    api.design.mockResolvedValue(DESIGN);
    api.captcha
      .mockResolvedValueOnce({ id: 41, img: 'iVBORw0KGgoAAAA' })
      .mockResolvedValueOnce({ id: 42, img: 'iVBORw0KGgoBBBB' });
    api.add
      .mockRejectedValueOnce(new HttpError('提交过于频繁，请输入验证码后再提交', 'N1040'))
      .mockRejectedValueOnce(new HttpError('验证码错误或已失效，请重新输入', 'N1041'))
      .mockResolvedValueOnce({ id: 78, dataNo: 'TW-0002' });
    vi.useFakeTimers({ toFake: ['Date'] });
    render(wrap(<ScancodePage />));
    await screen.findByText('摊主姓名');
    expect(screen.queryByTestId('scancode-captcha')).toBeNull();
    const name = () => document.querySelector('#scancode-name') as HTMLInputElement;
    fireEvent.change(name(), { target: { value: '王五' } });
    const submit = () => {
      vi.setSystemTime(Date.now() + RECLICK_GUARD_MS);
      fireEvent.click(screen.getByTestId('scancode-submit'));
    };
    submit();
    expect(await screen.findByTestId('scancode-captcha')).toBeTruthy();
    expect(api.add).toHaveBeenLastCalledWith('tk1', 9, expect.objectContaining({ name: '王五' }), undefined);
    await waitFor(() =>
      expect(screen.getByTestId('scancode-captcha-image').querySelector('img')?.getAttribute('src')).toBe(
        'data:image/png;base64,iVBORw0KGgoAAAA',
      ),
    );
    expect(name().value).toBe('王五');
    // Without the captcha typed, nothing is sent.
    submit();
    expect(api.add).toHaveBeenCalledTimes(1);
    fireEvent.change(screen.getByTestId('scancode-captcha-input'), { target: { value: ' ab12 ' } });
    submit();
    await waitFor(() => expect(api.add).toHaveBeenCalledTimes(2));
    expect(api.add).toHaveBeenLastCalledWith('tk1', 9, expect.objectContaining({ name: '王五' }), {
      codeId: 41,
      code: 'ab12',
    });
    // A wrong answer: a new image, the text cleared, the values kept.
    await waitFor(() => expect(api.captcha).toHaveBeenCalledTimes(2));
    await waitFor(() =>
      expect((screen.getByTestId('scancode-captcha-input') as HTMLInputElement).value).toBe(''),
    );
    expect(name().value).toBe('王五');
    fireEvent.change(screen.getByTestId('scancode-captcha-input'), { target: { value: 'cd34' } });
    submit();
    expect((await screen.findByTestId('scancode-done')).textContent).toContain('TW-0002');
    expect(api.add).toHaveBeenLastCalledWith('tk1', 9, expect.objectContaining({ name: '王五' }), {
      codeId: 42,
      code: 'cd34',
    });
  });

  it('maps refusals to endings', () => {
    expect(endingOf(new HttpError('x', 'N1006'))).toBe('invalid');
    expect(endingOf(new HttpError('x', 'N1009'))).toBeNull();
    expect(endingOf(new Error('x'))).toBeNull();
  });
});
