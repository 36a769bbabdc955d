import type { FormDesign } from '@shuzhi/contracts/diy-form';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type {
  PublicScene,
  PublicStatement,
  Scene,
  SceneAddInput,
  SceneEditInput,
  Statement,
  StatementAddInput,
  StatementEditInput,
} from '@shuzhi/contracts/no-login-pages';
import { http } from '../../platform/http/http.ts';
import { publicCall } from './no-login.api.ts';

export type { PublicScene, PublicStatement, Scene, Statement };

const silent = { silent: true } as const;
type Paging = { page: number; pageSize: number; title?: string };

/** Staff side of public statements (`/api/sysStatement/*`, docs/no-login.md); callers show their own errors. */
export const statementApi = {
  page: (params: Paging) => http.get<PageResult<Statement>>('/api/sysStatement/page', params, silent),
  add: (body: StatementAddInput) => http.post<Statement>('/api/sysStatement/add', body, silent),
  edit: (body: StatementEditInput) => http.post<Statement>('/api/sysStatement/edit', body, silent),
  withdraw: (id: number) => http.post<null>('/api/sysStatement/withdraw', { id }, silent),
  remove: (id: number) => http.post<null>('/api/sysStatement/delete', { id }, silent),
  /** The published design of a form (its fields to choose from). */
  design: (tableId: number) =>
    http.get<{ design: FormDesign }>(`/api/diyData/${tableId}/design`, undefined, silent),
};

/** Staff side of custom scenes (`/api/sysScene/*`). */
export const sceneApi = {
  page: (params: Paging) => http.get<PageResult<Scene>>('/api/sysScene/page', params, silent),
  add: (body: SceneAddInput) => http.post<Scene>('/api/sysScene/add', body, silent),
  edit: (body: SceneEditInput) => http.post<Scene>('/api/sysScene/edit', body, silent),
  withdraw: (id: number) => http.post<null>('/api/sysScene/withdraw', { id }, silent),
  remove: (id: number) => http.post<null>('/api/sysScene/delete', { id }, silent),
};

export const PUBLIC_PAGE_KEYS = {
  statements: ['statement'] as const,
  statementPage: (params: object) => ['statement', 'page', params] as const,
  design: (tableId: number) => ['statement', 'design', tableId] as const,
  scenes: ['scene'] as const,
  scenePage: (params: object) => ['scene', 'page', params] as const,
};

/** The public side: no session, the signed code in the query. */
export const publicPageApi = {
  statement: (code: string) =>
    publicCall<PublicStatement>(
      'GET',
      `/api/noLogin/statement?${new URLSearchParams({ loadCodedate: code }).toString()}`,
      null,
    ),
  scene: (code: string) =>
    publicCall<PublicScene>(
      'GET',
      `/api/noLogin/scene?${new URLSearchParams({ id: code }).toString()}`,
      null,
    ),
};
