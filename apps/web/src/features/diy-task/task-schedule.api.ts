import type { FormRow } from '@shuzhi/contracts/diy-table';
import type {
  ScheduleAddInput,
  SchedulePageInput,
  ScheduleRow,
  ScheduleRun,
  ScheduleUpdateInput,
} from '@shuzhi/contracts/diy-task-schedule';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { http } from '../../platform/http/http.ts';

const silent = { silent: true } as const;

/** Scheduled tasks (`/api/diyTaskSchedule/*`, docs/tasks.md); callers show their own errors. */
export const scheduleApi = {
  page: (body: SchedulePageInput) =>
    http.post<PageResult<ScheduleRow>>('/api/diyTaskSchedule/page', body, silent),
  runs: (id: number) => http.get<ScheduleRun[]>('/api/diyTaskSchedule/runs', { id }, silent),
  add: (body: ScheduleAddInput) => http.post<number>('/api/diyTaskSchedule/add', body, silent),
  update: (body: ScheduleUpdateInput) => http.post<null>('/api/diyTaskSchedule/update', body, silent),
  pause: (id: number) => http.post<null>('/api/diyTaskSchedule/pause', { id }, silent),
  resume: (id: number) => http.post<null>('/api/diyTaskSchedule/resume', { id }, silent),
  remove: (id: number) => http.post<null>('/api/diyTaskSchedule/delete', { id }, silent),
  /** Published periodic report forms the caller may hand out, with their period kind. */
  forms: async (): Promise<{ id: number; title: string; kind: string }[]> => {
    const page = await http.post<PageResult<FormRow>>(
      '/api/diyTable/page',
      { page: 1, pageSize: 1000, reportType: 1 },
      silent,
    );
    return page.items
      .filter((f) => f.version > 0 && f.status === 1 && f.period.kind !== 'none')
      .map((f) => ({ id: f.id, title: f.title, kind: f.period.kind }));
  },
};

export const SCHEDULE_KEYS = {
  all: ['diyTaskSchedule'] as const,
  page: (body: object) => ['diyTaskSchedule', 'page', body] as const,
  runs: (id: number) => ['diyTaskSchedule', 'runs', id] as const,
  forms: ['diyTaskSchedule', 'forms'] as const,
};
