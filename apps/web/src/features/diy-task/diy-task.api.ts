import type { FormRow } from '@shuzhi/contracts/diy-table';
import type {
  MyTaskPageInput,
  MyTaskRow,
  TaskAddInput,
  TaskDetail,
  TaskGrid,
  TaskHandOnInput,
  TaskPageInput,
  TaskRow,
  TaskTransferInput,
} from '@shuzhi/contracts/diy-task';
import type {
  DeletedTaskPageInput,
  DeletedTaskRow,
  TaskEditInput,
  TaskMetrics,
  TaskStepInput,
  TaskZeroInput,
  TaskZeroWithdrawInput,
} from '@shuzhi/contracts/diy-task-lifecycle';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { downloadFile } from '../../platform/data/download.ts';
import { http } from '../../platform/http/http.ts';

/** Grid filters (`GET /api/diyTask/grid`, `/export`): org type, depth in the tree, cell state. */
export type GridFilters = { orgType?: string; depth?: number; state?: string };

const silent = { silent: true } as const;

/** Tasks (`/api/diyTask/*`, docs/tasks.md); callers show their own errors. */
export const taskApi = {
  page: (body: TaskPageInput) => http.post<PageResult<TaskRow>>('/api/diyTask/page', body, silent),
  mine: (body: MyTaskPageInput) => http.post<PageResult<MyTaskRow>>('/api/diyTask/mine', body, silent),
  detail: (id: number) => http.get<TaskDetail>('/api/diyTask/detail', { id }, silent),
  grid: (id: number, filters: GridFilters = {}) =>
    http.get<TaskGrid>('/api/diyTask/grid', { id, ...filters }, silent),
  exportGrid: (id: number, filters: GridFilters, fileName: string) =>
    downloadFile('/api/diyTask/export', fileName, { method: 'get', body: { id, ...filters } }),
  metrics: (id: number) => http.get<TaskMetrics>('/api/diyTask/metrics', { id }, silent),
  edit: (body: TaskEditInput) => http.post<null>('/api/diyTask/edit', body, silent),
  close: (body: TaskStepInput) => http.post<null>('/api/diyTask/close', body, silent),
  reopen: (body: TaskStepInput) => http.post<null>('/api/diyTask/reopen', body, silent),
  remove: (body: TaskStepInput) => http.post<null>('/api/diyTask/delete', body, silent),
  deletedPage: (body: DeletedTaskPageInput) =>
    http.post<PageResult<DeletedTaskRow>>('/api/diyTask/deletedPage', body, silent),
  restore: (body: TaskStepInput) => http.post<null>('/api/diyTask/restore', body, silent),
  zero: (body: TaskZeroInput) => http.post<null>('/api/diyTask/zero', body, silent),
  zeroWithdraw: (body: TaskZeroWithdrawInput) => http.post<null>('/api/diyTask/zeroWithdraw', body, silent),
  add: (body: TaskAddInput) => http.post<number>('/api/diyTask/add', body, silent),
  handOn: (body: TaskHandOnInput) => http.post<number>('/api/diyTask/handOn', body, silent),
  transfer: (body: TaskTransferInput) => http.post<number>('/api/diyTask/transfer', body, silent),
  /** Published report forms the caller may hand out (form admins' list of 表单管理). */
  forms: async (): Promise<Pick<FormRow, 'id' | 'title'>[]> => {
    const page = await http.post<PageResult<FormRow>>(
      '/api/diyTable/page',
      { page: 1, pageSize: 1000, reportType: 1 },
      silent,
    );
    return page.items.filter((f) => f.version > 0 && f.status === 1).map(({ id, title }) => ({ id, title }));
  },
};

/** Every key starts with `diyTask`: one invalidation refreshes lists, detail and grid. */
export const TASK_KEYS = {
  all: ['diyTask'] as const,
  page: (body: object) => ['diyTask', 'page', body] as const,
  deleted: (body: object) => ['diyTask', 'deleted', body] as const,
  mine: (body: object) => ['diyTask', 'mine', body] as const,
  detail: (id: number) => ['diyTask', 'detail', id] as const,
  grid: (id: number, filters: GridFilters = {}) => ['diyTask', 'grid', id, filters] as const,
  metrics: (id: number) => ['diyTask', 'metrics', id] as const,
  forms: ['diyTask', 'forms'] as const,
};
