import { formDesignSchema } from '@shuzhi/contracts/diy-form';
import type { DiyRecord, FormDesignForFilling, RecordHistory as Step } from '@shuzhi/contracts/diy-table';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../platform/http/http-client.ts';
import '../../platform/i18n/i18n.ts';
import { valueText } from './record-format.ts';
import { RecordHistory } from './record-history.tsx';
import { RecordStatusTag } from './record-status-tag.tsx';
import { RecordViewDrawer } from './record-view-drawer.tsx';

const api = vi.hoisted(() => ({ design: vi.fn(), detail: vi.fn(), history: vi.fn(), handOver: vi.fn() }));
vi.mock('./diy-record.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-record.api.ts')>()),
  diyRecordApi: api,
}));
const pick = vi.hoisted(() => ({ pick: vi.fn() }));
vi.mock('../diy-form/diy-form.api.ts', () => ({ diyFormApi: pick }));

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 15_000 });

const DESIGN = formDesignSchema.parse({
  fields: [
    { id: 'name', type: 'text', label: '单位名称' },
    { id: 'amt', type: 'money', label: '金额', precision: 2 },
    {
      id: 'items',
      type: 'subTable',
      label: '明细',
      columns: [{ id: 'qty', type: 'integer', label: '数量' }],
    },
    { id: 'note', type: 'richText', label: '说明' },
  ],
});
const FORM = { version: 2, design: DESIGN, item: { title: '企业月报' } } as unknown as FormDesignForFilling;

const RECORD: DiyRecord = {
  id: 101,
  tableId: 9,
  version: 2,
  status: 3,
  dataNo: '202611210001',
  periodId: null,
  periodName: null,
  periodClosed: false,
  isZero: false,
  late: false,
  values: { name: '上海数智科技有限公司', amt: 1234.5, items: [{ qty: 3 }], note: '<p>按期<b>完成</b></p>' },
  labels: {},
  submitTime: '2026-11-21 10:00:00',
  auditUserName: '李娜',
  auditTime: '2026-11-21 11:00:00',
  auditComment: '金额与附件不符，请核对',
  createOrgId: 5,
  createOrgName: '区发改委',
  createTime: '2026-11-21 09:00:00',
  createUserId: 7,
  createUserName: '张伟',
  updateTime: null,
  updateUserName: null,
  can: { update: true, delete: true, submit: true, audit: false },
};

const STEPS: Step[] = [
  {
    id: 1,
    action: 'create',
    changes: [
      { field: 'name', label: '单位名称', before: null, after: '上海数智' },
      { field: 'amt', label: '金额', before: null, after: 1000 },
    ],
    comment: null,
    userName: '张伟',
    createTime: '2026-11-21 09:00:00',
    version: 2,
  },
  {
    id: 2,
    action: 'update',
    changes: [
      { field: 'amt', label: '金额', before: 1000, after: 1234.5 },
      { field: 'items', label: '明细', before: null, after: [{ qty: 3 }] },
    ],
    comment: null,
    userName: '张伟',
    createTime: '2026-11-21 09:30:00',
    version: 2,
  },
  {
    id: 3,
    action: 'submit',
    changes: [{ field: 'status', label: '状态', before: 0, after: 1 }],
    comment: null,
    userName: '张伟',
    createTime: '2026-11-21 10:00:00',
    version: 2,
  },
  {
    id: 4,
    action: 'return',
    changes: [{ field: 'status', label: '状态', before: 1, after: 3 }],
    comment: '金额与附件不符，请核对',
    userName: '李娜',
    createTime: '2026-11-21 11:00:00',
    version: 2,
  },
];

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

afterEach(() => vi.clearAllMocks());

describe('RecordStatusTag', () => {
  it('names each status', () => {
    render(
      <>
        <RecordStatusTag status={0} />
        <RecordStatusTag status={1} />
        <RecordStatusTag status={2} />
        <RecordStatusTag status={3} />
      </>,
    );
    expect(screen.getAllByTestId('diy-record-status').map((e) => e.textContent)).toEqual([
      '草稿',
      '待审核',
      '已通过',
      '已退回',
    ]);
    expect(screen.getAllByTestId('diy-record-status')[3]?.className).toContain('error');
  });
});

describe('valueText', () => {
  const words = { rows: (n: number) => `${n} 行`, files: (n: number) => `${n} 个文件`, separator: '、' };
  it('formats numbers, summarises sub-tables, files and rich text, prefers labels', () => {
    const [name, amt, items, note] = DESIGN.fields;
    expect(valueText(amt, 1234.5, undefined, words)).toBe('1,234.50');
    expect(valueText(items, [{ qty: 1 }, { qty: 2 }], undefined, words)).toBe('2 行');
    expect(valueText(note, '<p>a &amp; <b>b</b></p>', undefined, words)).toBe('a & b');
    expect(valueText(name, 'x', '标签', words)).toBe('标签');
    expect(valueText(name, null, undefined, words)).toBe('');
    expect(valueText({ ...name, type: 'attachment' } as never, [1, 2, 3], undefined, words)).toBe('3 个文件');
  });
  it('answers option labels of the design for choices, and dictionary codes as they are', () => {
    const [name] = DESIGN.fields;
    const items = [
      { label: '低', value: 'low' },
      { label: '高', value: 'high' },
    ];
    const radio = { ...name, type: 'radio', options: { source: 'options', items } } as never;
    const multi = { ...name, type: 'checkbox', options: { source: 'options', items } } as never;
    const dict = { ...name, type: 'select', options: { source: 'dict', dictCode: 'x' } } as never;
    expect(valueText(radio, 'high', undefined, words)).toBe('高');
    expect(valueText(multi, ['low', 'high', 'gone'], undefined, words)).toBe('低、高、gone');
    expect(valueText(dict, 'c1', undefined, words)).toBe('c1');
  });
});

describe('RecordHistory', () => {
  it('shows every step with who, when, the comment and the field changes before → after', async () => {
    api.history.mockResolvedValue(STEPS);
    api.design.mockResolvedValue(FORM);
    render(wrap(<RecordHistory tableId={9} recordId={101} />));
    const steps = await screen.findAllByTestId('diy-history-step');
    expect(steps.map((s) => s.getAttribute('data-action'))).toEqual(['create', 'update', 'submit', 'return']);
    expect(within(steps[0] as HTMLElement).getByText('创建')).toBeTruthy();
    expect(within(steps[0] as HTMLElement).getByText('2026-11-21 09:00:00')).toBeTruthy();
    // The design of the step's version formats the values: money with thousands, sub-tables as rows.
    await waitFor(() => expect(within(steps[1] as HTMLElement).getByText('1,234.50')).toBeTruthy());
    expect(within(steps[1] as HTMLElement).getByText('1,000.00')).toBeTruthy();
    expect(within(steps[1] as HTMLElement).getByText('1 行')).toBeTruthy();
    expect(api.design).toHaveBeenCalledWith(9, 2);
    // Status changes read as status tags; a return carries its comment.
    expect(within(steps[2] as HTMLElement).getByText('草稿')).toBeTruthy();
    expect(within(steps[2] as HTMLElement).getByText('待审核')).toBeTruthy();
    expect(within(steps[3] as HTMLElement).getByText('已退回')).toBeTruthy();
    expect(within(steps[3] as HTMLElement).getByTestId('diy-history-comment').textContent).toContain(
      '金额与附件不符，请核对',
    );
    expect(within(steps[3] as HTMLElement).getByText('李娜')).toBeTruthy();
  });

  it('shows a level of a task’s review passing the record, with its unit and comment', async () => {
    api.history.mockResolvedValue([
      ...STEPS.slice(0, 3),
      {
        id: 5,
        action: 'levelPass',
        changes: [],
        comment: '已核实',
        userName: '王海燕',
        orgName: '南京东路街道',
        createTime: '2026-11-21 12:00:00',
        version: 2,
      },
    ]);
    api.design.mockResolvedValue(FORM);
    render(wrap(<RecordHistory tableId={9} recordId={101} />));
    const steps = await screen.findAllByTestId('diy-history-step');
    const pass = steps[3] as HTMLElement;
    expect(pass.getAttribute('data-action')).toBe('levelPass');
    expect(within(pass).getByText('逐级审核通过')).toBeTruthy();
    expect(within(pass).getByTestId('diy-history-org').textContent).toBe('南京东路街道');
    expect(within(pass).getByTestId('diy-history-comment').textContent).toContain('已核实');
    expect(within(pass).queryByTestId('diy-history-changes')).toBeNull();
  });

  it('says when there is no history, and offers a retry when loading fails', async () => {
    api.history.mockResolvedValueOnce([]);
    const { unmount } = render(wrap(<RecordHistory tableId={9} recordId={101} />));
    expect(await screen.findByTestId('diy-history-empty')).toBeTruthy();
    unmount();
    api.history.mockRejectedValueOnce(new Error('网络连接错误'));
    render(wrap(<RecordHistory tableId={9} recordId={101} />));
    expect((await screen.findByTestId('diy-history-error')).textContent).toContain('网络连接错误');
  });
});

describe('RecordViewDrawer', () => {
  it('loads the record with the design of its own version, shows its facts, the return comment and history', async () => {
    api.detail.mockResolvedValue(RECORD);
    api.design.mockResolvedValue(FORM);
    api.history.mockResolvedValue(STEPS);
    render(
      wrap(
        <RecordViewDrawer
          tableId={9}
          recordId={101}
          open
          onClose={() => undefined}
          footer={<button type="button">通过</button>}
        />,
      ),
    );
    const meta = await screen.findByTestId('diy-record-meta');
    expect(api.detail).toHaveBeenCalledWith(9, 101);
    expect(api.design).toHaveBeenCalledWith(9, 2);
    expect(within(meta).getByText('202611210001')).toBeTruthy();
    expect(within(meta).getByText('张伟')).toBeTruthy();
    expect(within(meta).getByText('区发改委')).toBeTruthy();
    expect(within(meta).getByText('已退回')).toBeTruthy();
    expect(screen.getByTestId('diy-record-return-comment').textContent).toBe('金额与附件不符，请核对');
    expect(await screen.findByTestId('diy-view-diy-view-name')).toHaveProperty(
      'textContent',
      '上海数智科技有限公司',
    );
    expect(screen.getByText('通过')).toBeTruthy();
    fireEvent.click(screen.getByTestId('diy-record-history-tab'));
    expect((await screen.findAllByTestId('diy-history-step')).length).toBe(4);
  });

  it('hands the record over to another filler for form admins, with the refusal under the picker', async () => {
    api.detail.mockResolvedValue(RECORD);
    api.design.mockResolvedValue({
      ...FORM,
      item: { title: '企业月报', myAuth: { design: true, audit: false } },
    });
    api.history.mockResolvedValue([]);
    pick.pick.mockResolvedValue([
      { value: 12, label: '吴静', extra: '贵州路居委会' },
      { value: 13, label: '孙浩', extra: '贵州路第一网格' },
    ]);
    api.handOver.mockRejectedValueOnce(
      new HttpError('接收人所在单位本期已有记录，不能再移交记录给他', 'F1036'),
    );
    api.handOver.mockResolvedValueOnce(null);
    const onChanged = vi.fn();
    render(
      wrap(
        <RecordViewDrawer tableId={9} recordId={101} open onClose={() => undefined} onChanged={onChanged} />,
      ),
    );
    fireEvent.click(await screen.findByTestId('diy-record-hand-over'));
    const dialog = await screen.findByTestId('diy-handover-dialog');
    expect(within(dialog).getByTestId('diy-handover-current').textContent).toBe(
      '当前填报人：张伟（区发改委）',
    );
    // Nothing chosen: asked to choose.
    fireEvent.click(within(dialog).getByTestId('diy-handover-ok'));
    expect(await within(dialog).findByText('请选择接收人')).toBeTruthy();
    expect(api.handOver).not.toHaveBeenCalled();

    const choose = async (name: RegExp) => {
      const picker = within(dialog).getByTestId('diy-handover-user');
      await act(async () => {
        fireEvent.mouseDown(picker.querySelector('.ant-select-selector') ?? picker);
      });
      fireEvent.click(await screen.findByText(name));
    };
    await choose(/孙浩/);
    await new Promise((resolve) => setTimeout(resolve, 550));
    fireEvent.click(within(dialog).getByTestId('diy-handover-ok'));
    expect(await within(dialog).findByText('接收人所在单位本期已有记录，不能再移交记录给他')).toBeTruthy();
    expect(api.handOver).toHaveBeenCalledWith({ tableId: 9, ids: [101], userId: 13 });
    expect(onChanged).not.toHaveBeenCalled();

    await choose(/吴静/);
    await new Promise((resolve) => setTimeout(resolve, 550));
    fireEvent.click(within(dialog).getByTestId('diy-handover-ok'));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    expect(api.handOver).toHaveBeenLastCalledWith({ tableId: 9, ids: [101], userId: 12 });
  });

  it('shows a closed period and offers no hand-over there, saying why', async () => {
    api.detail.mockResolvedValue({ ...RECORD, periodId: 3, periodName: '2026年10月', periodClosed: true });
    api.design.mockResolvedValue({
      ...FORM,
      item: { title: '企业月报', myAuth: { design: true, audit: true } },
    });
    api.history.mockResolvedValue([]);
    render(wrap(<RecordViewDrawer tableId={9} recordId={101} open onClose={() => undefined} />));
    const meta = await screen.findByTestId('diy-record-meta');
    expect(meta.textContent).toContain('2026年10月');
    expect(within(meta).getByTestId('diy-record-period-closed').textContent).toBe('已关闭');
    const button = screen.getByTestId('diy-record-hand-over') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(screen.queryByTestId('diy-handover-dialog')).toBeNull();
    fireEvent.mouseEnter(screen.getByTestId('diy-record-hand-over-blocked'));
    expect(await screen.findByText('该填报周期已关闭，不能移交')).toBeTruthy();
  });

  it('offers no hand-over to whoever neither administers nor reviews the form', async () => {
    api.detail.mockResolvedValue(RECORD);
    api.design.mockResolvedValue({
      ...FORM,
      item: { title: '企业月报', myAuth: { design: false, audit: false } },
    });
    api.history.mockResolvedValue([]);
    render(wrap(<RecordViewDrawer tableId={9} recordId={101} open onClose={() => undefined} />));
    await screen.findByTestId('diy-record-meta');
    expect(screen.queryByTestId('diy-record-hand-over')).toBeNull();
  });
});
