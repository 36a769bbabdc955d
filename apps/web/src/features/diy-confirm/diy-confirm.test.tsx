import type { RowConfirmDetail, RowConfirmItem } from '@shuzhi/contracts/diy-confirm';
import { formDesignSchema } from '@shuzhi/contracts/diy-form';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { ConfirmLinkModal } from '../../components/diy-record/confirm-link-modal.tsx';
import { HttpError } from '../../platform/http/http-client.ts';
import RowConfirmPage from './row-confirm.page.tsx';

const api = vi.hoisted(() => ({ create: vi.fn(), list: vi.fn(), detail: vi.fn(), answer: vi.fn() }));
vi.mock('../../components/diy-record/diy-confirm.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/diy-record/diy-confirm.api.ts')>()),
  diyConfirmApi: api,
}));
// The page title's system name comes from the public profile; the page works without it.
vi.mock('../../platform/profile/profile.ts', () => ({ useBranding: () => ({ systemTitle: '数智' }) }));

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 15_000 });

const DETAIL: RowConfirmDetail = {
  tableId: 9,
  recordId: 101,
  title: '企业基本情况登记表',
  dataNo: 'QY-0001',
  design: formDesignSchema.parse({
    fields: [
      { id: 'name', type: 'text', label: '企业名称' },
      { id: 'staff', type: 'integer', label: '职工人数' },
    ],
  }),
  values: { name: '上海数智科技有限公司', staff: 42 },
  labels: {},
  subject: '张三',
  expireTime: '2026-11-29 10:00:00',
  answered: false,
};

function wrap(children: ReactNode, url = '/diyReport/rowConfirm?t=9&c=abc') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <App>{children}</App>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

afterEach(() => vi.clearAllMocks());

describe('RowConfirmPage', () => {
  it('shows the row and takes a dispute only with a comment', async () => {
    api.detail.mockResolvedValue(DETAIL);
    api.answer.mockResolvedValue(null);
    render(wrap(<RowConfirmPage />));
    expect((await screen.findByTestId('row-confirm-title')).textContent).toContain('企业基本情况登记表');
    expect(api.detail).toHaveBeenCalledWith(9, 'abc');
    expect(screen.getByText('上海数智科技有限公司')).toBeTruthy();
    expect(screen.getByTestId('row-confirm-subject').textContent).toContain('张三');

    fireEvent.click(screen.getByTestId('row-confirm-dispute'));
    const dialog = await screen.findByTestId('row-confirm-dispute-modal');
    fireEvent.click(within(document.body).getByTestId('row-confirm-dispute-submit'));
    expect(await within(dialog).findByText('请填写异议说明')).toBeTruthy();
    expect(api.answer).not.toHaveBeenCalled();

    fireEvent.change(screen.getByTestId('row-confirm-comment'), { target: { value: ' 职工人数应为 40 ' } });
    fireEvent.click(screen.getByTestId('row-confirm-dispute-submit'));
    expect((await screen.findByTestId('row-confirm-thanks')).textContent).toContain('您的异议已提交');
    expect(api.answer).toHaveBeenCalledWith(101, {
      code: 'abc',
      answer: 'dispute',
      comment: '职工人数应为 40',
    });
  });

  it('confirms after asking once more', async () => {
    api.detail.mockResolvedValue(DETAIL);
    api.answer.mockResolvedValue(null);
    render(wrap(<RowConfirmPage />));
    fireEvent.click(await screen.findByTestId('row-confirm-ok'));
    fireEvent.click(await screen.findByTestId('row-confirm-ok-sure'));
    expect((await screen.findByTestId('row-confirm-thanks')).textContent).toContain('您已确认信息无误');
    expect(api.answer).toHaveBeenCalledWith(101, { code: 'abc', answer: 'confirm' });
  });

  it.each([
    ['F1018', 'row-confirm-expired', '链接已过期'],
    ['F1019', 'row-confirm-used', '链接已使用'],
    ['F1017', 'row-confirm-invalid', '链接无效'],
    ['F1020', 'row-confirm-invalid', '链接无效'],
  ])('shows %s as its own state', async (code, testId, text) => {
    api.detail.mockRejectedValue(new HttpError('refused', code));
    render(wrap(<RowConfirmPage />));
    expect((await screen.findByTestId(testId)).textContent).toContain(text);
  });

  it('calls nothing for a link without its code, and shows a used link when the answer comes second', async () => {
    const { unmount } = render(wrap(<RowConfirmPage />, '/diyReport/rowConfirm?t=9'));
    expect(await screen.findByTestId('row-confirm-invalid')).toBeTruthy();
    expect(api.detail).not.toHaveBeenCalled();
    unmount();

    api.detail.mockResolvedValue(DETAIL);
    api.answer.mockRejectedValue(new HttpError('used', 'F1019'));
    render(wrap(<RowConfirmPage />));
    fireEvent.click(await screen.findByTestId('row-confirm-ok'));
    fireEvent.click(await screen.findByTestId('row-confirm-ok-sure'));
    expect(await screen.findByTestId('row-confirm-used')).toBeTruthy();
  });

  it('offers a retry when loading fails for another reason', async () => {
    api.detail.mockRejectedValueOnce(new HttpError('网络错误')).mockResolvedValueOnce(DETAIL);
    render(wrap(<RowConfirmPage />));
    fireEvent.click(await screen.findByTestId('row-confirm-retry'));
    expect(await screen.findByTestId('row-confirm-title')).toBeTruthy();
  });
});

describe('ConfirmLinkModal', () => {
  const LINKS: RowConfirmItem[] = [
    {
      id: 2,
      subject: '李四',
      state: 'disputed',
      expireTime: '2026-11-29 10:00:00',
      answerComment: '地址不对',
      answerTime: '2026-11-22 10:00:00',
      createTime: '2026-11-22 09:00:00',
      createUserName: '张伟',
    },
    {
      id: 1,
      subject: null,
      state: 'expired',
      expireTime: '2026-11-20 10:00:00',
      answerComment: null,
      answerTime: null,
      createTime: '2026-11-19 09:00:00',
      createUserName: '张伟',
    },
  ];

  it('creates a link with the chosen validity and shows it with its QR code; lists earlier links', async () => {
    api.list.mockResolvedValue(LINKS);
    api.create.mockResolvedValue({
      id: 3,
      url: '/diyReport/rowConfirm?t=9&c=xyz',
      code: 'xyz',
      expireTime: '2026-11-25 09:00:00',
    });
    render(wrap(<ConfirmLinkModal tableId={9} recordId={101} open onClose={() => undefined} />));
    expect((await screen.findByTestId('diy-confirm-state-disputed')).textContent).toContain('有异议');
    expect(screen.getByTestId('diy-confirm-state-expired').textContent).toContain('已过期');
    expect(screen.getByText('地址不对（2026-11-22 10:00:00）')).toBeTruthy();

    fireEvent.change(screen.getByTestId('diy-confirm-subject'), { target: { value: ' 王五 ' } });
    fireEvent.click(screen.getByText('3天'));
    fireEvent.click(screen.getByTestId('diy-confirm-create'));
    const url = (await screen.findByTestId('diy-confirm-url')) as HTMLInputElement;
    expect(url.value).toBe(`${window.location.origin}/diyReport/rowConfirm?t=9&c=xyz`);
    expect(api.create).toHaveBeenCalledWith({ tableId: 9, recordId: 101, days: 3, subject: '王五' });
    expect(screen.getByTestId('diy-confirm-qr')).toBeTruthy();
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));

    fireEvent.click(screen.getByTestId('diy-confirm-another'));
    expect(await screen.findByTestId('diy-confirm-form')).toBeTruthy();
  });
});
