import type { TaskDetail } from '@shuzhi/contracts/diy-task';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../platform/http/http-client.ts';
import { i18n } from '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({ edit: vi.fn(), forms: vi.fn(), add: vi.fn() }));
vi.mock('./diy-task.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-task.api.ts')>()),
  taskApi: api,
}));
const files = vi.hoisted(() => ({ upload: vi.fn() }));
vi.mock('../../components/diy-form/diy-form.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/diy-form/diy-form.api.ts')>()),
  diyFormApi: files,
}));
vi.mock('../../components/org-tree/use-org-tree.ts', async (original) => ({
  ...(await original<typeof import('../../components/org-tree/use-org-tree.ts')>()),
  useOrgTree: () => ({ data: [], isPending: false }),
}));

const { TaskManageBar } = await import('./task-manage.tsx');
const { TaskCreateDrawer } = await import('./task-create-drawer.tsx');
const { urgePlanText } = await import('./task-urge-plan.tsx');
const { TaskAttachmentList } = await import('./task-attachments.tsx');

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const TASK: TaskDetail = {
  id: 7,
  title: '11月社区人口月报',
  dueTime: '2099-12-15 18:00:00',
  createTime: '2026-11-20 09:00:00',
  createUserName: '系统管理员',
  createOrgName: '区大数据中心',
  state: 'open',
  forms: [],
  receiverCount: 0,
  doneCount: 0,
  instructions: '',
  attachments: [],
  receivers: [],
  events: [],
  manage: true,
  levelReview: false,
  urge: { enabled: true, beforeDays: [5, 2], afterDays: 4 },
};

function wrap(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter>{node}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

const days = () =>
  screen
    .getAllByTestId('task-edit-urge-day')
    .map((el) => (el.querySelector('input') ?? el) as HTMLInputElement);
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

async function openEdit(task: TaskDetail) {
  useSessionStore.setState({ buttons: ['diyTask:edit'] });
  wrap(<TaskManageBar task={task} onChanged={() => undefined} />);
  fireEvent.click(screen.getByTestId('task-edit'));
  return screen.findByTestId('task-edit-form');
}

afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('the create and edit drawers: urging ladder and attachments', () => {
  it('edits the steps, refusing repeated, out-of-range and missing days until they are fixed', async () => {
    api.edit.mockResolvedValue(null);
    const form = await openEdit(TASK);
    expect(days().map((d) => d.value)).toEqual(['5', '2']);
    const after = within(form).getByTestId('task-edit-urge-after');
    expect((after.querySelector('input') ?? (after as HTMLInputElement)).value).toBe('4');
    type(days()[1] as HTMLInputElement, '5');
    fireEvent.click(screen.getByTestId('task-edit-save'));
    expect(await within(form).findByText('提醒天数不能重复')).toBeTruthy();
    type(days()[1] as HTMLInputElement, '31');
    fireEvent.click(screen.getByTestId('task-edit-save'));
    expect(await within(form).findByText('天数须为 1–30 的整数')).toBeTruthy();
    type(days()[1] as HTMLInputElement, '1');
    fireEvent.click(within(form).getByTestId('task-edit-urge-add'));
    fireEvent.click(screen.getByTestId('task-edit-save'));
    expect(await within(form).findByText('请输入天数')).toBeTruthy();
    type(days()[2] as HTMLInputElement, '10');
    type(after.querySelector('input') ?? after, '31');
    fireEvent.click(screen.getByTestId('task-edit-save'));
    expect(await within(form).findByText('次数须为 0–30 的整数')).toBeTruthy();
    expect(api.edit).not.toHaveBeenCalled();
    type(after.querySelector('input') ?? after, '0');
    fireEvent.click(screen.getByTestId('task-edit-save'));
    await waitFor(() => expect(api.edit).toHaveBeenCalled());
    expect(api.edit.mock.calls[0]?.[0].urge).toEqual({ enabled: true, beforeDays: [5, 1, 10], afterDays: 0 });
  });

  it("shows the server's refusal of a step under that step's input, not in a toast", async () => {
    api.edit.mockRejectedValue(
      new HttpError('请求参数有误', 400, {
        'urge.beforeDays.1': ['服务器：该天数不可用'],
        title: ['标题重复'],
      }),
    );
    const form = await openEdit(TASK);
    fireEvent.click(screen.getByTestId('task-edit-save'));
    const shown = await within(form).findByText('服务器：该天数不可用');
    expect(within(form).getByText('标题重复')).toBeTruthy();
    // Under the ladder's 到期前 item (the steps' own items have no style of their own), marking the second input.
    expect(
      shown.closest('.ant-form-item')?.querySelector('[data-testid="task-edit-urge-before"]'),
    ).toBeTruthy();
    const second = days()[1] as HTMLInputElement;
    expect(second.closest('.ant-input-number-status-error, .ant-input-number-out-of-range')).toBeTruthy();
    expect(days()[0]?.closest('.ant-input-number-status-error')).toBeNull();
    expect(document.querySelector('.ant-message')?.textContent ?? '').not.toContain('服务器：该天数不可用');
  });

  it('offers no more than five days before due, and switches the ladder off', async () => {
    api.edit.mockResolvedValue(null);
    const form = await openEdit({ ...TASK, urge: { enabled: true, beforeDays: [9, 7, 5, 3], afterDays: 1 } });
    fireEvent.click(within(form).getByTestId('task-edit-urge-add'));
    expect(days()).toHaveLength(5);
    expect(within(form).queryByTestId('task-edit-urge-add')).toBeNull();
    fireEvent.click(within(form).getByTestId('task-edit-urge'));
    await waitFor(() => expect(within(form).queryByTestId('task-edit-urge-before')).toBeNull());
    fireEvent.click(screen.getByTestId('task-edit-save'));
    await waitFor(() => expect(api.edit).toHaveBeenCalled());
    expect(api.edit.mock.calls[0]?.[0].urge).toEqual({ enabled: false });
  });

  it('a task without a ladder opens switched off; switched on it offers the default steps', async () => {
    const form = await openEdit({ ...TASK, urge: null });
    expect(within(form).queryByTestId('task-edit-urge-before')).toBeNull();
    fireEvent.click(within(form).getByTestId('task-edit-urge'));
    await waitFor(() => expect(days().map((d) => d.value)).toEqual(['3', '1']));
  });

  it('the create drawer starts with the default ladder', async () => {
    api.forms.mockResolvedValue([]);
    wrap(<TaskCreateDrawer open onClose={() => undefined} onCreated={() => undefined} />);
    const form = await screen.findByTestId('task-create-form');
    const inputs = within(form)
      .getAllByTestId('task-create-urge-day')
      .map((el) => (el.querySelector('input') ?? el) as HTMLInputElement);
    expect(inputs.map((d) => d.value)).toEqual(['3', '1']);
    const after = within(form).getByTestId('task-create-urge-after');
    expect((after.querySelector('input') ?? (after as HTMLInputElement)).value).toBe('3');
  });

  it('describes the ladder in every language', async () => {
    const plan = { enabled: true, beforeDays: [3, 1], afterDays: 1 };
    const t = i18n.t.bind(i18n);
    try {
      await i18n.changeLanguage('zh-CN');
      expect(urgePlanText(t, plan)).toBe('到期前 3、1 天提醒；逾期后每日提醒，共 1 天');
      expect(urgePlanText(t, null)).toBe('未开启');
      await i18n.changeLanguage('en');
      expect(urgePlanText(t, plan)).toBe('before due on days 3, 1; daily once overdue, for 1 day');
      expect(urgePlanText(t, { ...plan, beforeDays: [], afterDays: 2 })).toBe(
        'none before due; daily once overdue, for 2 days',
      );
      await i18n.changeLanguage('zh-TW');
      expect(urgePlanText(t, { ...plan, afterDays: 0 })).toBe('到期前 3、1 天提醒；逾期後不提醒');
    } finally {
      await i18n.changeLanguage('zh-CN');
    }
  });

  it('adds and removes attachments in the edit drawer, and shows them on the detail', async () => {
    api.edit.mockResolvedValue(null);
    files.upload.mockResolvedValue({ id: 31, fileName: '新表样.xlsx' });
    const form = await openEdit({ ...TASK, attachments: [{ fileId: 30, name: '旧通知.pdf' }] });
    const field = within(form).getByTestId('task-attachments-field');
    expect(
      within(field)
        .getAllByTestId('task-attachment')
        .map((a) => a.textContent?.trim()),
    ).toEqual(['旧通知.pdf']);
    fireEvent.click(within(field).getByRole('button', { name: '删除附件 旧通知.pdf' }));
    const input = field.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], '新表样.xlsx')] } });
    await waitFor(() =>
      expect(
        within(field)
          .getAllByTestId('task-attachment')
          .map((a) => a.textContent?.trim()),
      ).toEqual(['新表样.xlsx']),
    );
    expect(files.upload).toHaveBeenCalledWith(expect.any(File), '新表样.xlsx');
    fireEvent.click(screen.getByTestId('task-edit-save'));
    await waitFor(() => expect(api.edit).toHaveBeenCalled());
    expect(api.edit.mock.calls[0]?.[0].attachments).toEqual([{ fileId: 31, name: '新表样.xlsx' }]);
    render(<TaskAttachmentList files={[{ fileId: 31, name: '新表样.xlsx' }]} />);
    expect(screen.getByTestId('task-attachments').textContent).toContain('新表样.xlsx');
  });
});
