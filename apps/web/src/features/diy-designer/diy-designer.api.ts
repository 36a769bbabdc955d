import type { DictTypeChoice } from '@shuzhi/contracts/dict';
import type {
  DesignSaveInput,
  DesignSaveResult,
  FormDesignForFilling,
  FormDesignResult,
} from '@shuzhi/contracts/diy-table';
import { http } from '../../platform/http/http.ts';

export type { DesignSaveResult, FormDesignResult };

const silent = { silent: true } as const;

export const designerApi = {
  /** The form with its draft, revision, published design and versions. */
  load: (id: number) => http.get<FormDesignResult>(`/api/diyTable/${id}`, undefined, silent),
  /** Saves the draft (and publishes it with `publish`); refused with F1004 over a newer revision. */
  save: (input: DesignSaveInput) => http.put<DesignSaveResult>('/api/diyTable/design', input, silent),
  /** The design of one published version (read-only view). */
  version: (id: number, version: number) =>
    http.get<FormDesignForFilling>(`/api/diyData/${id}/design`, { version }, silent),
  /** Dictionary types for a choice field's options (code and name). */
  dictTypes: () => http.get<DictTypeChoice[]>('/api/sysDictType/choices', undefined, silent),
};

export const DESIGNER_KEYS = {
  form: (id: number) => ['diyTable', 'design', id] as const,
  version: (id: number, version: number) => ['diyTable', 'design', id, 'version', version] as const,
  dictTypes: ['sysDictType', 'list', 'designer'] as const,
};
