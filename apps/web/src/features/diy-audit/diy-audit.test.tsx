import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { RECLICK_GUARD_MS } from '../../components/use-reclick-guard.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import type { AuditRow } from './diy-audit.api.ts';
import DiyAuditPage from './diy-audit.page.tsx';

const api = vi.hoisted(() => ({ page: vi.fn(), forms: vi.fn(), audit: vi.fn() }));
vi.mock('./diy-audit.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-audit.api.ts')>()),
  auditApi: api,
}));
// The record drawer has its own tests; here it only has to show which record is open and the footer.
vi.mock('../../components/diy-record/record-view-drawer.tsx', async (original) => ({
  ...(await original<typeof import('../../components/diy-record/record-view-drawer.tsx')>()),
  RecordViewDrawer: (props: { tableId: number; recordId: number; open: boolean; footer?: ReactNode }) =>
    props.open ? (
      <div data-testid="record-drawer">
        <span data-testid="record-drawer-id">{`${props.tableId}/${props.recordId}`}</span>
        {props.footer}
      </div>
    ) : null,
}));

const row = (over: Partial<AuditRow>): AuditRow => ({
  tableId: 5,
  tableTitle: '企业用工情况',
  id: 1,
  version: 1,
  status: 1,
  dataNo: 'YG0001',
  submitTime: '2026-11-21 10:00:00',
  createUserName: '张伟',
  createOrgName: '发改委',
  auditUserName: null,
  auditTime: null,
  auditComment: null,
  updateTime: null,
  periodName: null,
  periodClosed: false,
  ...over,
});
const ROWS = [
  row({ id: 1, dataNo: 'YG0001' }),
  row({ id: 2, dataNo: 'YG0002', createUserName: '李娜' }),
  row({ tableId: 9, tableTitle: '安全生产检查', id: 1, dataNo: 'AQ0001' }),
];
const pageOf = (items: AuditRow[]) => ({
  page: 1,
  pageSize: 20,
  total: items.length,
  totalPages: 1,
  items,
  hasPrevPage: false,
  hasNextPage: false,
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <DiyAuditPage />
      </App>
    </QueryClientProvider>,
  );
}
/** The shared machine is slow: antd's validation and the mocked requests take their time. */
const SLOW = { timeout: 8000 };
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

beforeEach(() => {
  api.page.mockResolvedValue(pageOf(ROWS));
  api.forms.mockResolvedValue([
    { value: 5, label: '企业用工情况', pending: 2 },
    { value: 9, label: '安全生产检查', pending: 1 },
  ]);
  api.audit.mockResolvedValue(null);
});
afterEach(() => {
  vi.clearAllMocks();
});

describe('报表审核', { timeout: 40_000 }, () => {
  it('lists the forms with 全部 first and their pending counts; picking one narrows the list', async () => {
    renderPage();
    await screen.findByText('YG0001');
    const menu = screen.getByTestId('audit-forms');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['全部表单3', '企业用工情况2', '安全生产检查1']);
    expect(api.page).toHaveBeenCalledWith(expect.objectContaining({ status: 1, page: 1 }));
    fireEvent.click(within(menu).getByText('安全生产检查'));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(expect.objectContaining({ tableId: 9, status: 1 })),
    );
    fireEvent.click(screen.getByRole('tab', { name: '已退回' }));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(expect.objectContaining({ tableId: 9, status: 3 })),
    );
  });

  it('returning needs a comment; the server’s field error shows under it', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('YG0002')).getByTestId('audit-review'));
    expect((await screen.findByTestId('record-drawer-id')).textContent).toBe('5/2');
    fireEvent.click(screen.getByTestId('audit-return'));
    const ok = await screen.findByTestId('audit-return-ok');
    // A form without periods: nothing to say about a period.
    expect(screen.queryByTestId('audit-return-refile')).toBeNull();
    fireEvent.click(ok);
    expect(await screen.findByText('请填写退回意见')).toBeTruthy();
    expect(api.audit).not.toHaveBeenCalled();

    api.audit.mockRejectedValueOnce(
      new HttpError('参数校验失败', 400, { comment: ['退回意见不能超过1000个字符'] }),
    );
    fireEvent.change(screen.getByTestId('audit-return-comment'), { target: { value: '  人数与上月不符  ' } });
    fireEvent.click(ok);
    expect(await screen.findByText('退回意见不能超过1000个字符', undefined, SLOW)).toBeTruthy();
    expect(api.audit).toHaveBeenCalledWith(5, { ids: [2], action: 'return', comment: '人数与上月不符' });

    // A second try once the reclick guard (SPEC §9) has let go of the button.
    await new Promise((resolve) => setTimeout(resolve, RECLICK_GUARD_MS + 50));
    fireEvent.click(ok);
    await waitFor(() => expect(api.audit).toHaveBeenCalledTimes(2));
    expect(await screen.findByText('已退回，填报人可修改后重新提交')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('record-drawer')).toBeNull());
    // The list and the counts are asked again.
    await waitFor(() => expect(api.forms).toHaveBeenCalledTimes(2));
    expect(api.page.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('tells the reviewer that a returned record stays the filler’s until its period is closed', async () => {
    api.page.mockResolvedValue(pageOf([row({ id: 3, dataNo: 'YG0003', periodName: '2026年10月' })]));
    renderPage();
    fireEvent.click(within(await rowOf('YG0003')).getByTestId('audit-review'));
    fireEvent.click(await screen.findByTestId('audit-return'));
    expect((await screen.findByTestId('audit-return-refile')).textContent).toBe(
      '退回的记录在其周期关闭前都可由填报人修改、提交或删除；截止日期后重新提交的记录标记为逾期。',
    );
  });

  it('a record of a closed period shows its period as closed and can be approved, not returned', async () => {
    api.page.mockResolvedValue(
      pageOf([
        row({ id: 1, dataNo: 'YG0001', periodName: '2026年10月', periodClosed: true }),
        row({ id: 2, dataNo: 'YG0002', periodName: '2026年11月' }),
      ]),
    );
    renderPage();
    const closed = await rowOf('YG0001');
    expect(closed.textContent).toContain('2026年10月');
    expect(within(closed).getByTestId('audit-period-closed').textContent).toBe('已关闭');
    expect(within(await rowOf('YG0002')).queryByTestId('audit-period-closed')).toBeNull();

    fireEvent.click(within(closed).getByTestId('audit-review'));
    await screen.findByTestId('record-drawer-id');
    const returnButton = screen.getByTestId('audit-return') as HTMLButtonElement;
    expect(returnButton.disabled).toBe(true);
    fireEvent.mouseEnter(screen.getByTestId('audit-return-blocked'));
    expect(await screen.findByText('该填报周期已关闭：记录可以审核通过，不能退回')).toBeTruthy();
    expect((screen.getByTestId('audit-approve') as HTMLButtonElement).disabled).toBe(false);
  });

  it('approves from the drawer after a confirmation; a record reviewed meanwhile says F1012', async () => {
    api.audit.mockRejectedValueOnce(new HttpError('只能审核待审核的记录', 'F1012'));
    renderPage();
    fireEvent.click(within(await rowOf('AQ0001')).getByTestId('audit-review'));
    fireEvent.click(await screen.findByTestId('audit-approve'));
    fireEvent.click(await screen.findByTestId('audit-approve-ok'));
    expect(await screen.findByText('安全生产检查：只能审核待审核的记录')).toBeTruthy();
    expect(api.audit).toHaveBeenCalledWith(9, { ids: [1], action: 'approve' });
  });

  it('bulk approves the selected records, one call per form, after a confirmation', async () => {
    renderPage();
    await screen.findByText('YG0001');
    const batch = screen.getByTestId('audit-batch-approve') as HTMLButtonElement;
    expect(batch.disabled).toBe(true);
    for (const no of ['YG0001', 'YG0002', 'AQ0001']) {
      fireEvent.click(within(await rowOf(no)).getByRole('checkbox'));
    }
    expect(screen.getByTestId('audit-selected').textContent).toBe('已选 3 项');
    fireEvent.click(batch);
    expect(await screen.findByText('通过选中的 3 条记录？通过后填报人不能再修改。')).toBeTruthy();
    expect(api.audit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('audit-batch-approve-ok'));
    await waitFor(() => expect(api.audit).toHaveBeenCalledTimes(2));
    expect(api.audit).toHaveBeenCalledWith(5, { ids: [1, 2], action: 'approve' });
    expect(api.audit).toHaveBeenCalledWith(9, { ids: [1], action: 'approve' });
    expect(await screen.findByText('已通过 3 条记录')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('audit-selected')).toBeNull());
  });

  it('reviewed records only open for viewing and cannot be selected', async () => {
    api.page.mockResolvedValue(
      pageOf([row({ id: 3, dataNo: 'YG0003', status: 2, auditUserName: '王强', auditComment: '同意' })]),
    );
    renderPage();
    const tr = await rowOf('YG0003');
    expect(within(tr).getByText('同意')).toBeTruthy();
    expect((within(tr).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(tr).getByTestId('audit-view'));
    await screen.findByTestId('record-drawer');
    expect(screen.queryByTestId('audit-approve')).toBeNull();
    expect(screen.queryByTestId('audit-return')).toBeNull();
  });

  it('says when nothing awaits review', async () => {
    api.page.mockResolvedValue(pageOf([]));
    api.forms.mockResolvedValue([]);
    renderPage();
    expect(await screen.findByText('没有待审核的记录')).toBeTruthy();
    expect(await screen.findByText('您没有需要审核的表单', undefined, SLOW)).toBeTruthy();
  });
});
