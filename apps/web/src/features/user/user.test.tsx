import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { UserImportResult, UserRow } from '@shuzhi/contracts/user';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checks, isLocked, NEW_USER_VALUES, sexFromIdCard, toFormValues, toPayload } from './user-form.ts';
import { importOutcome, isXlsxFile, UserImportModal } from './user-import.tsx';

const api = vi.hoisted(() => ({
  importFile: vi.fn(async (_file: Blob, _name: string) => ({}) as UserImportResult),
  downloadTemplate: vi.fn(async (_name: string) => 'template.xlsx'),
  downloadErrorReport: vi.fn(async (_id: string, _name: string) => 'report.xlsx'),
}));
vi.mock('./user.api.ts', async (original) => ({
  ...(await original<typeof import('./user.api.ts')>()),
  userApi: api,
}));

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

afterEach(() => {
  vi.clearAllMocks();
});

const USER = {
  id: 5,
  account: 'gzlstaff',
  realName: '吴静',
  accountType: 777,
  sex: 2,
  orgId: 30,
  posId: 4,
  orderNo: 20,
  status: 1,
  phone: '13900001111',
  email: null,
  idCardNum: null,
  nickName: null,
  address: null,
  enterprise: null,
  remark: null,
  area: '黄浦区',
  areaCode: '310101',
  street: null,
  streetCode: null,
  community: null,
  communityCode: null,
  wangge: null,
  wanggeCode: null,
  weiwangge: null,
  weiwanggeCode: null,
  regionId: null,
  regionName: null,
  lockUntil: null,
} as unknown as UserRow;

describe('user form logic', () => {
  it('turns a stored user with roles and extra orgs into form values and back into an update', () => {
    const values = toFormValues(USER, [1, 2], [{ orgId: 40, orgName: '网格', posId: null, posName: null }]);
    expect(values).toMatchObject({
      account: 'gzlstaff',
      roleIdList: [1, 2],
      extOrgList: [{ orgId: 40, posId: null }],
    });
    const body = toPayload({ ...values, realName: '  吴静静 ', phone: '', street: ' 南京东路街道 ' }, USER);
    expect(body).toMatchObject({
      id: 5,
      realName: '吴静静',
      phone: null,
      street: '南京东路街道',
      area: '黄浦区',
      accountType: 777,
      roleIdList: [1, 2],
      extOrgList: [{ orgId: 40, posId: null }],
    });
    expect(body).not.toHaveProperty('status');
  });

  it('adds: defaults, half-filled extra orgs dropped, a repeated org keeps its last position, roles unique', () => {
    const body = toPayload({
      ...NEW_USER_VALUES,
      account: ' newuser1 ',
      realName: '新人',
      orgId: 9,
      roleIdList: [3, 3, 4],
      extOrgList: [{ orgId: 11, posId: 1 }, { orgId: null, posId: 2 }, { orgId: 11, posId: 5 }, {}],
    });
    expect(body).toMatchObject({
      account: 'newuser1',
      accountType: ACCOUNT_TYPE.normal,
      status: 1,
      orderNo: 100,
      roleIdList: [3, 4],
      extOrgList: [{ orgId: 11, posId: 5 }],
      nickName: null,
    });
  });

  it('never sends an account type for admin accounts (the page cannot change 888 / 999)', () => {
    const admin = { ...USER, accountType: ACCOUNT_TYPE.sysAdmin } as UserRow;
    const body = toPayload(toFormValues(admin, [], []), admin);
    expect(body).not.toHaveProperty('accountType');
  });

  it('checks formats like the server, empty optional boxes passing', () => {
    expect(checks.account('a1234')).toBe(true);
    expect(checks.account('1abcd')).toBe(false);
    expect(checks.account('abc')).toBe(false);
    expect(checks.phone('')).toBe(true);
    expect(checks.phone('13912345678')).toBe(true);
    expect(checks.phone('1391234567')).toBe(false);
    expect(checks.email('a@b.cn')).toBe(true);
    expect(checks.email('a@b')).toBe(false);
    expect(checks.idCardNum('310101198607082374')).toBe(true);
    expect(checks.idCardNum('310101198607082375')).toBe(false);
    expect(sexFromIdCard('310101198607082374')).toBe(1);
    expect(sexFromIdCard('bad')).toBeNull();
  });

  it('tells a locked account from one whose lock ran out', () => {
    // 10:00 in Shanghai, the product's zone by default, whatever the browser's own zone.
    const now = new Date('2026-06-01T10:00:00+08:00');
    expect(isLocked({ lockUntil: null }, now)).toBe(false);
    expect(isLocked({ lockUntil: '2026-06-01 10:30:00' }, now)).toBe(true);
    expect(isLocked({ lockUntil: '2026-06-01 09:30:00' }, now)).toBe(false);
  });
});

describe('import dialog', () => {
  it('accepts .xlsx only and grades the outcome', () => {
    expect(isXlsxFile({ name: '账号.xlsx' })).toBe(true);
    expect(isXlsxFile({ name: 'users.xls' })).toBe(false);
    expect(isXlsxFile({ name: 'users.csv' })).toBe(false);
    const result = { total: 2, imported: 1, failed: 1, errors: [], errorReportId: 'x' };
    expect(importOutcome(result)).toBe('warning');
    expect(importOutcome({ ...result, imported: 0 })).toBe('error');
    expect(importOutcome({ ...result, failed: 0 })).toBe('success');
  });

  it('uploads the file, lists the refused rows and offers the error report', async () => {
    api.importFile.mockResolvedValue({
      total: 2,
      imported: 1,
      failed: 1,
      errors: [{ row: 3, messages: ['机构编码“X”：记录不存在', '手机号码格式不正确'] }],
      errorReportId: 'report-id-123',
    });
    render(wrap(<UserImportModal open onClose={() => {}} />));
    fireEvent.click(await screen.findByTestId('user-import-template'));
    await waitFor(() => expect(api.downloadTemplate).toHaveBeenCalled());

    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    const file = new File(['x'], 'users.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(input, { target: { files: [file] } });
    await screen.findByTestId('user-import-result');
    expect(api.importFile).toHaveBeenCalledWith(file, 'users.xlsx');
    const errors = screen.getByTestId('user-import-errors');
    expect(errors.textContent).toContain('3');
    expect(errors.textContent).toContain('手机号码格式不正确');
    fireEvent.click(screen.getByTestId('user-import-report'));
    await waitFor(() => expect(api.downloadErrorReport).toHaveBeenCalled());
    expect(api.downloadErrorReport.mock.calls[0]?.[0]).toBe('report-id-123');
    // Another file can go up from the result.
    fireEvent.click(screen.getByTestId('user-import-again'));
    await screen.findByTestId('user-import-upload');
  });

  it('does not send other files', async () => {
    render(wrap(<UserImportModal open onClose={() => {}} />));
    await screen.findByTestId('user-import-upload');
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'users.csv', { type: 'text/csv' })] } });
    await new Promise((r) => setTimeout(r, 50));
    expect(api.importFile).not.toHaveBeenCalled();
  });
});
