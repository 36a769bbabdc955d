import type { FormAddInput, FormPageInput, FormRow, FormUpdateInput } from '@shuzhi/contracts/diy-table';
import { createResource, type Resource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { FormRow };
export type FormFilters = Pick<FormPageInput, 'title' | 'categoryId' | 'status'>;

const silent = { silent: true } as const;

export const formApi = {
  detail: (id: number) => http.get<FormRow>('/api/diyTable/detail', { id }, silent),
  add: (body: FormAddInput) => http.post<number>('/api/diyTable/add', body, silent),
  update: (body: FormUpdateInput) => http.post<null>('/api/diyTable/update', body, silent),
  /** Soft delete: the form goes to the recycle bin. */
  remove: (id: number) => http.post<null>('/api/diyTable/delete', { id }, silent),
  /** A copy of the design, or of the design with its records; answers the new form's id. */
  clone: (body: { id: number; title?: string; withRecords: boolean }) =>
    http.post<number>('/api/diyTable/clone', body, silent),
};

/**
 * The list through the shared CRUD page: forms have no setStatus route, a status change is a settings update;
 * delete is the soft delete.
 */
const base = createResource<FormRow, FormFilters>('diyTable');
export const formResource: Resource<FormRow, FormFilters> = {
  ...base,
  setStatus: (id, status) => formApi.update({ id, status }),
  remove: (id) => formApi.remove(id),
};

export const FORM_KEYS = {
  all: ['diyTable'] as const,
  detail: (id: number) => ['diyTable', 'detail', id] as const,
};

/** Where a form's records open (SPEC §2 "Opening a report or form item", report type 1). */
export const formDataPath = (id: number) => `/diyReport/index/formTable?id=${id}`;
/** The form designer. */
export const formDesignPath = (id: number) => `/diyTable/design?id=${id}`;
