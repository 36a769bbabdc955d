import type {
  DiffLog,
  DiffLogPageInput,
  ExLog,
  ExLogPageInput,
  OpLog,
  OpLogPageInput,
  VisitLog,
  VisitLogPageInput,
} from '@shuzhi/contracts/log';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { DiffLog, ExLog, OpLog, VisitLog };

type Filters<I> = Omit<I, 'page' | 'pageSize' | 'field' | 'order' | 'descStr'>;
export type VisitLogFilters = Filters<VisitLogPageInput>;
export type OpLogFilters = Filters<OpLogPageInput>;
export type ExLogFilters = Filters<ExLogPageInput>;
export type DiffLogFilters = Filters<DiffLogPageInput>;

export type LogService = 'sysLogVis' | 'sysLogOp' | 'sysLogEx' | 'sysLogDiff';

export const visitLogResource = createResource<VisitLog, VisitLogFilters>('sysLogVis');
export const opLogResource = createResource<OpLog, OpLogFilters>('sysLogOp');
export const exLogResource = createResource<ExLog, ExLogFilters>('sysLogEx');
export const diffLogResource = createResource<DiffLog, DiffLogFilters>('sysLogDiff');

/** `POST /api/{log}/clear`: removes every row of the log (the caller's tenant; a super admin: all); answers how many. */
export const clearLog = (service: LogService) =>
  http.post<number>(`/api/${service}/clear`, {}, { silent: true });
