import { IMPORT_MAX_BYTES, type ImportJob } from '@shuzhi/contracts/diy-import';
import type { FormDesignForFilling } from '@shuzhi/contracts/diy-table';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { RECLICK_GUARD_MS } from '../use-reclick-guard.ts';
import { ImportButton } from './import-button.tsx';
import { ImportWizard, precheckWorkbook } from './import-wizard.tsx';

const api = vi.hoisted(() => ({
  template: vi.fn(),
  upload: vi.fn(),
  job: vi.fn(),
  errors: vi.fn(),
  confirm: vi.fn(),
  cancel: vi.fn(),
}));
vi.mock('./diy-import.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-import.api.ts')>()),
  diyImportApi: api,
}));
const records = vi.hoisted(() => ({ design: vi.fn() }));
vi.mock('../diy-record/diy-record.api.ts', async (original) => ({
  ...(await original<typeof import('../diy-record/diy-record.api.ts')>()),
  diyRecordApi: records,
}));

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const job = (patch: Partial<ImportJob>): ImportJob => ({
  id: 41,
  tableId: 9,
  fileName: '人口.xlsx',
  state: 'checking',
  processed: 0,
  total: null,
  valid: 0,
  invalid: 0,
  duplicates: 0,
  extraColumns: [],
  missingColumns: [],
  errors: [],
  inserted: 0,
  periodId: null,
  periodName: null,
  failure: null,
  createTime: '2026-11-22 10:00:00',
  ...patch,
});

const CHECKED = job({
  state: 'checked',
  processed: 5,
  total: 5,
  valid: 3,
  invalid: 2,
  duplicates: 1,
  extraColumns: ['编号', '状态'],
  errors: [
    { row: 4, column: '户籍人口', message: '户籍人口 须为整数' },
    { row: 6, column: null, message: '与第 3 行重复' },
  ],
});

const xlsx = (name = '人口.xlsx', size = 2048) => {
  const file = new File(['x'.repeat(8)], name, {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

function choose(file: File) {
  const input = screen.getByTestId('diy-import-modal').querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

const wait = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

function renderWizard(props: Partial<Parameters<typeof ImportWizard>[0]> = {}) {
  const onImported = vi.fn();
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  render(
    <QueryClientProvider client={client}>
      <App>
        <ImportWizard
          open
          tableId={9}
          title="社区人口月报"
          period={null}
          onClose={onClose}
          onImported={onImported}
          {...props}
        />
      </App>
    </QueryClientProvider>,
  );
  return { onImported, onClose };
}

const body = () => screen.getByTestId('diy-import-body');

afterEach(() => vi.resetAllMocks());

describe('导入 wizard', () => {
  it('refuses what is not an .xlsx or is too large before sending anything', () => {
    expect(precheckWorkbook({ name: 'a.xls', size: 10 })).toBe('F1030');
    expect(precheckWorkbook({ name: 'a.XLSX', size: 0 })).toBe('F1030');
    expect(precheckWorkbook({ name: 'a.xlsx', size: IMPORT_MAX_BYTES + 1 })).toBe('F1031');
    expect(precheckWorkbook({ name: 'a.xlsx', size: IMPORT_MAX_BYTES })).toBeNull();

    renderWizard();
    expect(screen.getByTestId('diy-import-start')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('diy-import-limits').textContent).toContain('50 MB');
    expect(screen.getByTestId('diy-import-limits').textContent).toContain('200,000');
    choose(xlsx('人口.csv'));
    expect(screen.getByTestId('diy-import-file-error').textContent).toContain('不是有效的 Excel 工作簿');
    expect(screen.getByTestId('diy-import-start')).toHaveProperty('disabled', true);
    choose(xlsx('人口.xlsx', IMPORT_MAX_BYTES + 1));
    expect(screen.getByTestId('diy-import-file-error').textContent).toContain('文件过大');
    choose(xlsx());
    expect(screen.queryByTestId('diy-import-file-error')).toBeNull();
    expect(screen.getByTestId('diy-import-file').textContent).toContain('人口.xlsx（2 KB）');
    expect(screen.getByTestId('diy-import-start')).toHaveProperty('disabled', false);
    expect(api.upload).not.toHaveBeenCalled();
  });

  it('downloads the template and shows the target period read-only', async () => {
    api.template.mockResolvedValue('社区人口月报_模板.xlsx');
    renderWizard({ period: { id: 12, name: '2026年11月' } });
    expect(screen.getByTestId('diy-import-period').textContent).toContain('2026年11月');
    expect(screen.getByTestId('diy-import-period').querySelector('input')).toBeNull();
    fireEvent.click(screen.getByTestId('diy-import-template'));
    await waitFor(() => expect(api.template).toHaveBeenCalledWith(9, '社区人口月报.xlsx'));
    expect(await screen.findByText('模板已下载')).toBeTruthy();
  });

  it('uploads with progress in bytes, polls the check, shows the outcome and imports the valid rows', async () => {
    let answer: (value: { jobId: number }) => void = () => {};
    api.upload.mockImplementation(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    );
    api.job
      .mockResolvedValueOnce(job({ processed: 2, total: null }))
      .mockResolvedValueOnce(job({ processed: 3, total: 5 }))
      .mockResolvedValueOnce(CHECKED)
      .mockResolvedValueOnce(job({ ...CHECKED, state: 'importing' }))
      .mockResolvedValue(job({ ...CHECKED, state: 'done', inserted: 3 }));
    api.errors.mockResolvedValue('社区人口月报_errors.xlsx');
    api.confirm.mockResolvedValue(job({ ...CHECKED, state: 'importing' }));
    const { onImported, onClose } = renderWizard({ period: { id: 12, name: '2026年11月' } });

    const file = xlsx('人口.xlsx', 3 * 1024 * 1024);
    choose(file);
    fireEvent.click(screen.getByTestId('diy-import-start'));
    await waitFor(() => expect(api.upload).toHaveBeenCalledTimes(1));
    const [tableId, sent, name, periodId, onProgress] = api.upload.mock.calls[0] as [
      number,
      File,
      string,
      number | null,
      (p: { loaded: number; total: number | null }) => void,
    ];
    expect([tableId, sent, name, periodId]).toEqual([9, file, '人口.xlsx', 12]);
    act(() => onProgress({ loaded: 1.5 * 1024 * 1024, total: 3 * 1024 * 1024 }));
    expect(screen.getByTestId('diy-import-uploading').textContent).toContain('正在上传 1.5 MB / 3 MB');
    // Closing while the file is on its way is refused.
    fireEvent.click(screen.getByTestId('diy-import-close'));
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => answer({ jobId: 41 }));

    // Checking: rows read, then rows of the total.
    expect((await screen.findByTestId('diy-import-processed')).textContent).toContain('已读取 2 行');
    await waitFor(() =>
      expect(screen.getByTestId('diy-import-processed').textContent).toContain('已检查 3 / 5 行'),
    );
    expect(screen.getByTestId('diy-import-cancel-check')).toBeTruthy();

    // Checked: counts, ignored columns, the first errors.
    await screen.findByTestId('diy-import-error-table');
    expect(api.job).toHaveBeenCalledWith(41);
    expect(screen.getByTestId('diy-import-valid').textContent).toContain('3');
    expect(screen.getByTestId('diy-import-invalid').textContent).toContain('2');
    expect(screen.getByTestId('diy-import-duplicates').textContent).toContain('1');
    expect(screen.getByTestId('diy-import-extra').textContent).toContain('编号、状态');
    const table = screen.getByTestId('diy-import-error-table');
    expect(table.textContent).toContain('户籍人口 须为整数');
    expect(table.textContent).toContain('整行');
    expect(table.textContent).toContain('与第 3 行重复');

    fireEvent.click(screen.getByTestId('diy-import-errors'));
    await waitFor(() => expect(api.errors).toHaveBeenCalledWith(41, '社区人口月报_errors.xlsx'));

    // Drafts rather than submitted records, then 确认导入 3 条 and its confirmation.
    fireEvent.click(within(screen.getByTestId('diy-import-mode')).getByText('保存为草稿'));
    const confirm = screen.getByTestId('diy-import-confirm');
    expect(confirm.textContent?.replace(/\s/g, '')).toBe('确认导入3条');
    fireEvent.click(confirm);
    fireEvent.click(await screen.findByTestId('diy-import-confirm-ok'));
    await waitFor(() => expect(api.confirm).toHaveBeenCalledWith(41, { submit: false }));

    expect((await screen.findByTestId('diy-import-inserted')).textContent).toBe('已导入 3 条记录');
    expect(onImported).toHaveBeenCalledTimes(1);
    expect(onImported).toHaveBeenCalledWith(3);
    const polls = api.job.mock.calls.length;
    await wait(2000);
    expect(api.job.mock.calls.length).toBe(polls);
    expect(api.cancel).not.toHaveBeenCalled();
  });

  it('cancels a running check and goes back to the file', async () => {
    api.upload.mockResolvedValue({ jobId: 41 });
    api.job.mockResolvedValue(job({ processed: 1000, total: 100_000 }));
    api.cancel.mockResolvedValue(null);
    renderWizard();
    choose(xlsx());
    fireEvent.click(screen.getByTestId('diy-import-start'));
    await waitFor(() =>
      expect(screen.getByTestId('diy-import-processed').textContent).toContain('已检查 1,000 / 100,000 行'),
    );
    expect(screen.getByTestId('diy-import-checking').querySelector('.ant-progress')?.textContent).toContain(
      '1%',
    );
    fireEvent.click(screen.getByTestId('diy-import-cancel-check'));
    await waitFor(() => expect(api.cancel).toHaveBeenCalledWith(41));
    await screen.findByTestId('diy-import-dragger');
    expect(body().dataset.step).toBe('0');
  });

  it('offers no import when no row is valid, and drops the job on 重新上传', async () => {
    api.upload.mockResolvedValue({ jobId: 41 });
    api.job.mockResolvedValue(
      job({
        ...CHECKED,
        valid: 0,
        invalid: 5,
        duplicates: 0,
        extraColumns: [],
        missingColumns: ['户籍人口'],
      }),
    );
    api.cancel.mockResolvedValue(null);
    renderWizard();
    choose(xlsx());
    fireEvent.click(screen.getByTestId('diy-import-start'));
    await screen.findByTestId('diy-import-error-table');
    expect(screen.getByTestId('diy-import-missing').textContent).toContain('户籍人口');
    expect(screen.getByTestId('diy-import-confirm')).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByTestId('diy-import-reupload'));
    await screen.findByTestId('diy-import-dragger');
    expect(api.cancel).toHaveBeenCalledWith(41);
    expect(api.confirm).not.toHaveBeenCalled();
  });

  it('shows the message of a refused upload and of a failed job', async () => {
    api.upload.mockRejectedValueOnce(new HttpError('文件过大或解压后过大，请拆分后再导入', 'F1031'));
    renderWizard();
    choose(xlsx());
    fireEvent.click(screen.getByTestId('diy-import-start'));
    expect((await screen.findByTestId('diy-import-error')).textContent).toContain('文件过大或解压后过大');
    expect(body().dataset.step).toBe('0');

    api.upload.mockResolvedValue({ jobId: 42 });
    api.job.mockResolvedValue(
      job({ id: 42, state: 'failed', failure: '工作簿中没有与表单字段对应的列，请使用下载的模板' }),
    );
    await wait(RECLICK_GUARD_MS + 50);
    fireEvent.click(screen.getByTestId('diy-import-start'));
    expect((await screen.findByTestId('diy-import-failure')).textContent).toContain(
      '工作簿中没有与表单字段对应的列',
    );
    expect(screen.getByTestId('diy-import-failure').textContent).toContain('未写入任何数据');
    fireEvent.click(screen.getByTestId('diy-import-reupload'));
    await screen.findByTestId('diy-import-dragger');
    // A failed job is gone already: nothing to cancel.
    expect(api.cancel).not.toHaveBeenCalled();
  });

  it('polls on through a lost connection, and stops at once when the server says the job is gone', async () => {
    api.upload.mockResolvedValue({ jobId: 43 });
    api.job
      .mockResolvedValueOnce(job({ id: 43, processed: 2, total: 5 }))
      .mockRejectedValueOnce(new HttpError('网络连接失败'))
      .mockResolvedValueOnce(job({ ...CHECKED, id: 43 }));
    api.cancel.mockResolvedValue(null);
    renderWizard();
    choose(xlsx());
    fireEvent.click(screen.getByTestId('diy-import-start'));
    // The failed poll shows no failure while it is tried again.
    await waitFor(() => expect(api.job).toHaveBeenCalledTimes(2));
    await wait(200);
    expect(screen.queryByTestId('diy-import-failure')).toBeNull();
    await screen.findByTestId('diy-import-error-table');
    expect(api.job).toHaveBeenCalledTimes(3);

    fireEvent.click(screen.getByTestId('diy-import-reupload'));
    await screen.findByTestId('diy-import-dragger');
    api.upload.mockResolvedValue({ jobId: 44 });
    api.job.mockReset();
    api.job.mockRejectedValue(new HttpError('导入任务不存在或已过期，请重新上传', 'F1033'));
    choose(xlsx());
    await wait(RECLICK_GUARD_MS + 50);
    fireEvent.click(screen.getByTestId('diy-import-start'));
    expect((await screen.findByTestId('diy-import-failure')).textContent).toContain('导入任务不存在或已过期');
    expect(api.job).toHaveBeenCalledTimes(1);
  });

  it('drops an unconfirmed job when the wizard is closed', async () => {
    api.upload.mockResolvedValue({ jobId: 41 });
    api.job.mockResolvedValue(CHECKED);
    api.cancel.mockResolvedValue(null);
    const { onClose } = renderWizard();
    choose(xlsx());
    fireEvent.click(screen.getByTestId('diy-import-start'));
    await screen.findByTestId('diy-import-error-table');
    fireEvent.keyDown(screen.getByTestId('diy-import-confirm'), {
      key: 'Escape',
      code: 'Escape',
      keyCode: 27,
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.cancel).toHaveBeenCalledWith(41);
  });
});

describe('导入 button', () => {
  const design = (canImport: boolean) =>
    ({
      version: 1,
      design: { fields: [] },
      item: {
        id: 9,
        title: '社区人口月报',
        myAuth: { import: canImport },
        periodKind: 'month',
        currentPeriod: { id: 12, name: '2026年11月', dueDate: '2026-12-05', state: 'open' },
      },
    }) as unknown as FormDesignForFilling;

  function renderButton() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
    return render(
      <QueryClientProvider client={client}>
        <App>
          <span data-testid="toolbar">
            <ImportButton tableId={9} onImported={() => {}} />
          </span>
        </App>
      </QueryClientProvider>,
    );
  }

  it('is shown only with myAuth.import', async () => {
    records.design.mockResolvedValue(design(false));
    renderButton();
    await waitFor(() => expect(records.design).toHaveBeenCalledWith(9));
    await wait(50);
    expect(screen.queryByTestId('diy-record-import')).toBeNull();
  });

  it('opens the wizard on the current period of a periodic form', async () => {
    records.design.mockResolvedValue(design(true));
    renderButton();
    fireEvent.click(await screen.findByTestId('diy-record-import'));
    expect((await screen.findByTestId('diy-import-modal')).textContent).toContain('导入记录 · 社区人口月报');
    expect(screen.getByTestId('diy-import-period').textContent).toContain('2026年11月');
  });
});
