import type { FormRow } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  page: vi.fn(),
  detail: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
  clone: vi.fn(),
  pickUsers: vi.fn(),
  roles: vi.fn(),
}));
vi.mock('./diy-table.api.ts', async (original) => {
  const real = await original<typeof import('./diy-table.api.ts')>();
  return {
    ...real,
    formApi: api,
    formResource: {
      ...real.formResource,
      page: api.page,
      setStatus: (id: number, status: 1 | 2) => api.update({ id, status }),
      remove: api.remove,
    },
  };
});
vi.mock('../../components/diy-classify/diy-classify.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/diy-classify/diy-classify.api.ts')>()),
  classifyApi: {
    list: vi.fn(async () => []),
    options: vi.fn(async () => [{ value: 3, label: '安全生产', pid: 0, orderNo: 1, formCount: 2 }]),
  },
}));
vi.mock('../../components/org-tree/org.api.ts', async (original) => {
  const real = await original<typeof import('../../components/org-tree/org.api.ts')>();
  return { ...real, orgApi: { ...real.orgApi, treeAll: vi.fn(async () => []) } };
});
vi.mock('../../platform/session/session.api.ts', async (original) => {
  const real = await original<typeof import('../../platform/session/session.api.ts')>();
  return {
    ...real,
    sessionApi: { ...real.sessionApi, loginConfig: vi.fn(async () => ({ publicKey: 'PK' })) },
  };
});
vi.mock('../../platform/crypto/password-cipher.ts', () => ({
  encryptPassword: (text: string, key: string) => `enc(${text},${key})`,
}));

const { default: DiyTablePage } = await import('./diy-table.page.tsx');
const { FormSettingsDrawer } = await import('./form-settings-drawer.tsx');
const { CloneModal } = await import('./clone-modal.tsx');

configure({ asyncUtilTimeout: 10_000 });

const NOBODY = { all: false, orgIds: [], roleIds: [], userIds: [], enterprises: false };
const row = (extra: Partial<FormRow>): FormRow => ({
  id: 1,
  title: '企业安全检查表',
  reportType: 1,
  categoryId: 3,
  categoryName: '安全生产',
  ownerOrgId: 10,
  ownerOrgName: '发改委',
  status: 1,
  isShowPwd: false,
  version: 0,
  hasDraft: true,
  fillers: NOBODY,
  viewers: NOBODY,
  reviewerIds: [],
  needsReview: true,
  orderNo: 100,
  remark: null,
  recordCount: 0,
  period: { kind: 'none', dueDays: 0, graceDays: 0, onePerOrg: true },
  rollup: null,
  createTime: '2026-11-20 09:00:00',
  updateTime: null,
  createUserId: 1,
  createUserName: '系统管理员',
  updateUserId: null,
  updateUserName: null,
  ...extra,
});
const PUBLISHED = row({
  id: 7,
  title: '防汛物资统计',
  isShowPwd: true,
  version: 3,
  hasDraft: true,
  recordCount: 12,
  updateTime: '2026-11-21 10:00:00',
});
const DRAFT = row({ id: 8, title: '新建表单', needsReview: false });

const pageOf = <T,>(items: T[]): PageResult<T> => ({
  page: 1,
  pageSize: 20,
  total: items.length,
  totalPages: 1,
  items,
  hasPrevPage: false,
  hasNextPage: false,
});

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/diyTable']}>
        <App>
          {children}
          <Where />
        </App>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

const ALL = [
  'diyTable:page',
  'diyTable:add',
  'diyTable:update',
  'diyTable:delete',
  'diyTable:design',
  'diyTable:clone',
];

beforeEach(() => {
  api.page.mockImplementation(async () => pageOf([PUBLISHED, DRAFT]));
  api.update.mockImplementation(async () => null);
  api.remove.mockImplementation(async () => null);
  api.add.mockImplementation(async () => 55);
  api.clone.mockImplementation(async () => 56);
  api.pickUsers.mockImplementation(async () => []);
  api.roles.mockImplementation(async () => []);
  api.detail.mockImplementation(async () => PUBLISHED);
});
afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

const rowOf = async (title: string) => {
  const cell = await screen.findByText(title);
  return cell.closest('tr') as HTMLElement;
};

describe('表单管理 list', { timeout: 60_000 }, () => {
  it('shows versions, the password lock and records, with the actions the user holds', async () => {
    useSessionStore.setState({ buttons: ['diyTable:page'] });
    render(wrap(<DiyTablePage />));
    const published = await rowOf('防汛物资统计');
    expect(within(published).getByTestId('form-version').textContent).toBe('v3有未发布修改');
    expect(within(published).getByTestId('form-lock')).toBeTruthy();
    expect(within(published).getByTestId('form-record-count').textContent).toBe('12');
    const draft = await rowOf('新建表单');
    expect(within(draft).getByTestId('form-version').textContent).toBe('未发布');
    expect(within(draft).queryByTestId('form-lock')).toBeNull();
    expect(within(draft).getByText('无需审核')).toBeTruthy();
    // Only the page permission: no add, design, settings or more; the data of a draft form is not open yet.
    expect(screen.queryByTestId('form-add')).toBeNull();
    expect(screen.queryByTestId('form-design')).toBeNull();
    expect(screen.queryByTestId('form-edit')).toBeNull();
    expect(screen.queryByTestId('form-more')).toBeNull();
    expect((within(draft).getByTestId('form-data') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(published).getByTestId('form-data'));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/diyReport/index/formTable?id=7'),
    );
  });

  it('searches by title, sorts, opens the designer and deletes to the recycle bin after a confirmation', async () => {
    useSessionStore.setState({ buttons: ALL });
    render(wrap(<DiyTablePage />));
    await rowOf('防汛物资统计');
    fireEvent.change(screen.getByTestId('form-admin-search-title'), { target: { value: '防汛' } });
    fireEvent.click(screen.getByTestId('form-admin-search-submit'));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(expect.objectContaining({ title: '防汛', page: 1 })),
    );
    fireEvent.click(screen.getAllByText('记录数')[0] as HTMLElement);
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(
        expect.objectContaining({ field: 'recordCount', order: 'ascending' }),
      ),
    );

    fireEvent.click(within(await rowOf('防汛物资统计')).getByTestId('form-more'));
    fireEvent.click(await screen.findByTestId('form-delete'));
    expect(
      await screen.findByText('“防汛物资统计”将移入回收站，可在回收站中恢复。确定删除吗？'),
    ).toBeTruthy();
    expect(api.remove).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('form-delete-ok'));
    await waitFor(() => expect(api.remove).toHaveBeenCalledWith(7));
    expect(await screen.findByText('已移入回收站')).toBeTruthy();

    fireEvent.click(within(await rowOf('防汛物资统计')).getByTestId('form-design'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/diyTable/design?id=7'));
  });

  it('disables a form after confirming the switch', async () => {
    useSessionStore.setState({ buttons: ALL });
    render(wrap(<DiyTablePage />));
    const published = await rowOf('防汛物资统计');
    fireEvent.click(within(published).getByTestId('crud-status-switch'));
    fireEvent.click(await screen.findByTestId('crud-status-ok'));
    await waitFor(() => expect(api.update).toHaveBeenCalledWith({ id: 7, status: 2 }));
  });

  it('after adding a form offers to open the designer', async () => {
    useSessionStore.setState({ buttons: ALL });
    render(wrap(<DiyTablePage />));
    await rowOf('防汛物资统计');
    fireEvent.click(screen.getByTestId('form-add'));
    fireEvent.change(await screen.findByTestId('form-field-title'), { target: { value: '月度能耗统计' } });
    fireEvent.click(screen.getByTestId('form-settings-save'));
    await waitFor(() => expect(api.add).toHaveBeenCalled());
    expect(await screen.findByText('现在去设计“月度能耗统计”的字段吗？')).toBeTruthy();
    fireEvent.click(screen.getByTestId('form-go-design'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/diyTable/design?id=55'));
  });
});

describe('form settings drawer', { timeout: 60_000 }, () => {
  it('refuses an empty title and a short password, then sends the encrypted password and the fillers', async () => {
    const onSaved = vi.fn();
    render(wrap(<FormSettingsDrawer target={{}} onClose={() => {}} onSaved={onSaved} />));
    fireEvent.click(await screen.findByTestId('form-settings-save'));
    expect(await screen.findByText('请输入表单名称')).toBeTruthy();

    fireEvent.change(screen.getByTestId('form-field-title'), { target: { value: '  企业填报表  ' } });
    fireEvent.click(screen.getByTestId('form-password-set'));
    const password = await screen.findByTestId('form-field-password');
    fireEvent.click(screen.getByTestId('form-settings-save'));
    expect(await screen.findByText('请输入表单密码')).toBeTruthy();
    fireEvent.change(password, { target: { value: '12345' } });
    fireEvent.click(screen.getByTestId('form-settings-save'));
    expect(await screen.findByText('密码长度6~12个字符')).toBeTruthy();
    expect(api.add).not.toHaveBeenCalled();

    fireEvent.change(password, { target: { value: 'Abc12345' } });
    fireEvent.click(within(screen.getByTestId('form-field-fillers')).getByTestId('form-field-fillers-all'));
    fireEvent.click(
      within(screen.getByTestId('form-field-fillers')).getByTestId('form-field-fillers-enterprises'),
    );
    fireEvent.click(screen.getByTestId('form-settings-save'));
    await waitFor(() =>
      expect(api.add).toHaveBeenCalledWith({
        title: '企业填报表',
        categoryId: null,
        status: 1,
        fillers: { ...NOBODY, all: true, enterprises: true },
        viewers: NOBODY,
        reviewerIds: [],
        needsReview: true,
        orderNo: 100,
        remark: null,
        period: { kind: 'none', dueDays: 0, graceDays: 0, onePerOrg: true },
        password: 'enc(Abc12345,PK)',
      }),
    );
    expect(onSaved).toHaveBeenCalledWith(55, true, '企业填报表');
  });

  it('shows server field errors on their fields and clears a password on request', async () => {
    api.update.mockImplementationOnce(async () => {
      throw new HttpError('请求参数错误', 400, { title: ['同名表单已存在'] });
    });
    const onSaved = vi.fn();
    render(wrap(<FormSettingsDrawer target={{ id: 7 }} onClose={() => {}} onSaved={onSaved} />));
    const title = (await screen.findByTestId('form-field-title')) as HTMLInputElement;
    await waitFor(() => expect(title.value).toBe('防汛物资统计'));
    expect(screen.getByTestId('form-password-state')).toBeTruthy();
    fireEvent.click(screen.getByTestId('form-settings-save'));
    expect(await screen.findByText('同名表单已存在')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('form-password-clear'));
    fireEvent.click(screen.getByTestId('form-settings-save'));
    await waitFor(() =>
      expect(api.update).toHaveBeenLastCalledWith(expect.objectContaining({ id: 7, clearPassword: true })),
    );
    expect(api.update.mock.lastCall?.[0]).not.toHaveProperty('password');
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(7, false, '防汛物资统计'));
  });
});

describe('form settings: reporting periods', { timeout: 60_000 }, () => {
  it('loads the period settings, says a kind change applies from the next period, and saves them', async () => {
    api.detail.mockImplementation(async () => ({
      ...PUBLISHED,
      period: { kind: 'month', dueDays: 5, graceDays: 0, onePerOrg: true },
    }));
    render(wrap(<FormSettingsDrawer target={{ id: 7 }} onClose={() => {}} onSaved={() => {}} />));
    const due = (await screen.findByTestId('form-field-due-days')) as HTMLInputElement;
    await waitFor(() => expect(due.value).toBe('5'));
    expect(screen.queryByTestId('form-period-change-hint')).toBeNull();

    const kind = screen.getByTestId('form-field-period-kind');
    fireEvent.mouseDown(kind.querySelector('.ant-select-selector') ?? kind);
    fireEvent.click(await screen.findByTitle('季报'));
    expect(await screen.findByTestId('form-period-change-hint')).toBeTruthy();
    fireEvent.change(screen.getByTestId('form-field-grace-days'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('form-field-one-per-org'));
    fireEvent.click(screen.getByTestId('form-settings-save'));
    await waitFor(() =>
      expect(api.update).toHaveBeenCalledWith(
        expect.objectContaining({
          id: 7,
          period: { kind: 'quarter', dueDays: 5, graceDays: 3, onePerOrg: false },
        }),
      ),
    );
  });

  it('shows a server error on a period setting under its field', async () => {
    api.update.mockImplementationOnce(async () => {
      throw new HttpError('请求参数错误', 400, { 'period.dueDays': ['天数过大'] });
    });
    api.detail.mockImplementation(async () => ({
      ...PUBLISHED,
      period: { kind: 'year', dueDays: 400, graceDays: 0, onePerOrg: true },
    }));
    render(wrap(<FormSettingsDrawer target={{ id: 7 }} onClose={() => {}} onSaved={() => {}} />));
    await screen.findByTestId('form-field-due-days');
    fireEvent.click(screen.getByTestId('form-settings-save'));
    expect(await screen.findByText('天数过大')).toBeTruthy();
  });
});

describe('clone modal', { timeout: 60_000 }, () => {
  it('proposes a title, copies the design with the records, and refuses an empty title', async () => {
    const onCloned = vi.fn();
    const onClose = vi.fn();
    render(wrap(<CloneModal source={PUBLISHED} onClose={onClose} onCloned={onCloned} />));
    const title = (await screen.findByTestId('form-clone-title')) as HTMLInputElement;
    await waitFor(() => expect(title.value).toBe('防汛物资统计（副本）'));
    expect(screen.getByText('该表单现有 12 条记录')).toBeTruthy();

    fireEvent.change(title, { target: { value: ' ' } });
    fireEvent.click(screen.getByTestId('form-clone-ok'));
    expect(await screen.findByText('请输入表单名称')).toBeTruthy();
    expect(api.clone).not.toHaveBeenCalled();

    fireEvent.change(title, { target: { value: '防汛物资统计 2027' } });
    fireEvent.click(screen.getByTestId('form-clone-records'));
    fireEvent.click(screen.getByTestId('form-clone-ok'));
    await waitFor(() =>
      expect(api.clone).toHaveBeenCalledWith({ id: 7, title: '防汛物资统计 2027', withRecords: true }),
    );
    expect(onCloned).toHaveBeenCalledWith(56);
    expect(onClose).toHaveBeenCalled();
  });
});
