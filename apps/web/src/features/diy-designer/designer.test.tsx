import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { Designer } from './designer.tsx';
import type { FormDesignResult } from './diy-designer.api.ts';

const api = vi.hoisted(() => ({ load: vi.fn(), save: vi.fn(), version: vi.fn(), dictTypes: vi.fn() }));
vi.mock('./diy-designer.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-designer.api.ts')>()),
  designerApi: api,
}));

const DATA: FormDesignResult = {
  form: {
    id: 9,
    title: '企业用工情况季报',
    reportType: 1,
    categoryId: null,
    categoryName: null,
    ownerOrgId: null,
    ownerOrgName: null,
    status: 1,
    isShowPwd: false,
    version: 1,
    hasDraft: true,
    fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false },
    viewers: { all: false, orgIds: [], roleIds: [], userIds: [], enterprises: false },
    reviewerIds: [],
    needsReview: false,
    orderNo: 0,
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
  } as FormDesignResult['form'],
  draft: {
    labelWidth: 120,
    numbering: null,
    fields: [
      {
        id: 'company',
        type: 'text',
        label: '企业名称',
        span: 24,
        required: true,
        readOnly: false,
        unique: 'none',
      },
    ],
  },
  revision: 3,
  published: {
    labelWidth: 120,
    numbering: null,
    fields: [
      {
        id: 'company',
        type: 'text',
        label: '企业名称',
        span: 24,
        required: true,
        readOnly: false,
        unique: 'none',
      },
    ],
  },
  versions: [{ version: 1, publishTime: '2026-11-20 10:00:00', publishUserName: '系统管理员' }],
};

const refresh = vi.fn(async () => undefined);
const reload = vi.fn(async () => undefined);

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/diyTable/design?id=9']}>
        <App>{children}</App>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

const renderDesigner = () =>
  render(wrap(<Designer formId={9} data={DATA} refresh={refresh} reload={reload} />));
const canvas = () => screen.getByTestId('designer-canvas');
const ctrl = (key: string, shiftKey = false) =>
  act(() => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key, ctrlKey: true, shiftKey, bubbles: true }));
  });

beforeEach(() => {
  useSessionStore.setState({ buttons: ['diyTable:design', 'diyTable:publish'] });
  api.save.mockImplementation(async () => ({ revision: 4, version: 1 }));
  api.dictTypes.mockImplementation(async () => [{ code: 'sex', name: '性别' }]);
});
afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('Designer', { timeout: 40_000 }, () => {
  it('adds fields from the palette by click and by Enter, each with a fresh id', async () => {
    renderDesigner();
    expect(await screen.findByTestId('designer-field-company', undefined, { timeout: 10_000 })).toBeTruthy();
    // Every field type is in the palette.
    const items = screen.getAllByTestId(/^designer-palette-[a-zA-Z]+$/).filter((e) => e.tagName === 'BUTTON');
    expect(items.length).toBe(35);

    fireEvent.click(screen.getByTestId('designer-palette-money'));
    expect(within(canvas()).getByTestId('designer-field-money1')).toBeTruthy();
    fireEvent.keyDown(screen.getByTestId('designer-palette-money'), { key: 'Enter' });
    expect(within(canvas()).getByTestId('designer-field-money2')).toBeTruthy();
    // The newest field is selected and its settings show.
    expect((screen.getByTestId('designer-prop-id') as HTMLInputElement).value).toBe('money2');
    expect(screen.getByTestId('designer-dirty').textContent).toContain('未保存');
  });

  it('edits the selected field: label, required, width, and a fixed id once published', async () => {
    renderDesigner();
    fireEvent.click(await screen.findByTestId('designer-field-company', undefined, { timeout: 10_000 }));
    // The published field keeps its id.
    expect((screen.getByTestId('designer-prop-id') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('designer-prop-label'), { target: { value: '单位全称' } });
    expect(within(screen.getByTestId('designer-field-company')).getByText('单位全称')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('designer-prop-span')).getByText('1/2'));
    expect(screen.getByTestId('designer-field-company').getAttribute('data-span')).toBe('12');

    // A new field's id may change before it is published.
    fireEvent.click(screen.getByTestId('designer-palette-integer'));
    const id = screen.getByTestId('designer-prop-id') as HTMLInputElement;
    expect(id.disabled).toBe(false);
    fireEvent.change(id, { target: { value: 'Staff' } });
    expect(screen.getByText('以小写字母开头，只含小写字母和数字，最多24位')).toBeTruthy();
    fireEvent.change(id, { target: { value: 'staff' } });
    fireEvent.blur(id);
    expect(screen.getByTestId('designer-field-staff')).toBeTruthy();
  });

  it('undoes and redoes with the buttons and with Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y', async () => {
    renderDesigner();
    await screen.findByTestId('designer-field-company', undefined, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('designer-palette-date'));
    expect(screen.queryByTestId('designer-field-date1')).toBeTruthy();
    ctrl('z');
    expect(screen.queryByTestId('designer-field-date1')).toBeNull();
    ctrl('z', true);
    expect(screen.queryByTestId('designer-field-date1')).toBeTruthy();
    fireEvent.click(screen.getByTestId('designer-undo'));
    expect(screen.queryByTestId('designer-field-date1')).toBeNull();
    ctrl('y');
    expect(screen.queryByTestId('designer-field-date1')).toBeTruthy();

    // Typing a label is one step, not one per character.
    fireEvent.click(screen.getByTestId('designer-field-date1'));
    fireEvent.change(screen.getByTestId('designer-prop-label'), { target: { value: '填' } });
    fireEvent.change(screen.getByTestId('designer-prop-label'), { target: { value: '填报日期' } });
    expect(within(screen.getByTestId('designer-field-date1')).getByText('填报日期')).toBeTruthy();
    ctrl('z');
    expect((screen.getByTestId('designer-prop-label') as HTMLInputElement).value).toBe('日期');

    // Delete offers an undo.
    fireEvent.click(screen.getByTestId('designer-remove-date1'));
    expect(screen.queryByTestId('designer-field-date1')).toBeNull();
    fireEvent.click(await screen.findByTestId('designer-removed-undo'));
    expect(screen.queryByTestId('designer-field-date1')).toBeTruthy();
  });

  it('shows design problems beside the field and refuses to publish them', async () => {
    renderDesigner();
    await screen.findByTestId('designer-field-company', undefined, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('designer-palette-formula'));
    fireEvent.change(screen.getByTestId('designer-formula-input'), { target: { value: '{company} * (2' } });
    expect(screen.getByTestId('designer-formula-status').textContent).toContain('语法错误');
    const field = screen.getByTestId('designer-field-formula1');
    expect(within(field).getByRole('alert').textContent).toContain('公式有误');
    expect(screen.getByTestId('designer-problems').textContent).toMatch(/\d+个问题/);

    fireEvent.click(screen.getByTestId('designer-publish'));
    expect(await screen.findByTestId('designer-problem-list')).toBeTruthy();
    expect(api.save).not.toHaveBeenCalled();

    // Inserting a reference and fixing the formula clears the problem.
    fireEvent.change(screen.getByTestId('designer-formula-input'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('designer-palette-integer'));
    fireEvent.click(screen.getByTestId('designer-field-formula1'));
    fireEvent.click(screen.getByTestId('designer-formula-ref-integer1'));
    await waitFor(() =>
      expect((screen.getByTestId('designer-formula-input') as HTMLTextAreaElement).value).toBe('{integer1}'),
    );
    expect(screen.getByTestId('designer-formula-status').textContent).toContain('公式正确');
    expect(screen.queryByTestId('designer-problems')).toBeNull();
  });

  it('saves the draft and publishes with the base revision, then shows the new version', async () => {
    api.save
      .mockImplementationOnce(async () => ({ revision: 4, version: 1 }))
      .mockImplementationOnce(async () => ({ revision: 5, version: 2 }));
    renderDesigner();
    await screen.findByTestId('designer-field-company', undefined, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('designer-palette-mobile'));
    fireEvent.click(screen.getByTestId('designer-save'));
    await waitFor(() => expect(api.save).toHaveBeenCalledTimes(1));
    const first = api.save.mock.calls[0]?.[0];
    expect(first).toMatchObject({ id: 9, publish: false, baseRevision: 3 });
    expect(first.design.fields.map((f: { id: string }) => f.id)).toEqual(['company', 'mobile1']);
    await waitFor(() => expect(screen.getByTestId('designer-dirty').textContent).toContain('已保存'));
    expect(refresh).toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('designer-publish'));
    expect(await screen.findByText(/新版本 V2/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('designer-publish-ok'));
    await waitFor(() => expect(api.save).toHaveBeenCalledTimes(2));
    expect(api.save.mock.calls[1]?.[0]).toMatchObject({ id: 9, publish: true, baseRevision: 4 });
    expect(await screen.findByText('已发布为 V2')).toBeTruthy();
  });

  it('marks a field 每期沿用, not an upload, and saves the mark', async () => {
    renderDesigner();
    fireEvent.click(await screen.findByTestId('designer-field-company', undefined, { timeout: 10_000 }));
    fireEvent.click(screen.getByTestId('designer-prop-carry'));
    expect(screen.getByTestId('designer-prop-carry').getAttribute('aria-checked')).toBe('true');
    // An upload belongs to its own record: nothing to carry.
    fireEvent.click(screen.getByTestId('designer-palette-attachment'));
    expect(screen.queryByTestId('designer-prop-carry')).toBeNull();
    fireEvent.click(screen.getByTestId('designer-save'));
    await waitFor(() => expect(api.save).toHaveBeenCalledTimes(1));
    const fields = api.save.mock.calls[0]?.[0].design.fields as { id: string; carry?: boolean }[];
    expect(fields.map((f) => [f.id, f.carry ?? false])).toEqual([
      ['company', true],
      ['attachment1', false],
    ]);
  });

  it('explains a conflict (F1004) and offers to reload; shows the server’s field errors beside fields', async () => {
    api.save.mockImplementationOnce(async () => {
      throw new HttpError('表单设计已被他人修改，请刷新后重试', 'F1004');
    });
    renderDesigner();
    await screen.findByTestId('designer-field-company', undefined, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('designer-palette-text'));
    fireEvent.click(screen.getByTestId('designer-save'));
    fireEvent.click(await screen.findByTestId('designer-conflict-reload'));
    await waitFor(() => expect(reload).toHaveBeenCalled());

    api.save.mockImplementationOnce(async () => {
      throw new HttpError('invalid', 400, { company: ['字段标识重复'] });
    });
    fireEvent.click(screen.getByTestId('designer-save'));
    await waitFor(() =>
      expect(within(screen.getByTestId('designer-field-company')).getByRole('alert').textContent).toContain(
        '字段标识重复',
      ),
    );
  });

  it('edits form settings when nothing is selected: numbering with a sample number', async () => {
    renderDesigner();
    await screen.findByTestId('designer-field-company', undefined, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('designer-form-numbering'));
    fireEvent.change(screen.getByTestId('designer-form-prefix'), { target: { value: 'HP' } });
    expect(screen.getByTestId('designer-form-sample').textContent).toMatch(/HP\d{8}0001/);
  });
});
