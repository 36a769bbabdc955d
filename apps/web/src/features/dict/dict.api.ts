import type {
  DictDataPageInput,
  DictDataRow,
  DictTypePageInput,
  DictTypeRow,
} from '@shuzhi/contracts/dict-admin';
import { createResource } from '../../platform/data/resource.ts';
import { DICT_KEYS } from '../../platform/dict/dict.store.ts';

export type { DictDataRow, DictTypeRow };
export type DictTypeFilters = Pick<DictTypePageInput, 'name' | 'code'>;
export type DictDataFilters = Pick<DictDataPageInput, 'dictTypeId' | 'label' | 'value'>;

export const dictTypeResource = createResource<DictTypeRow, DictTypeFilters>('sysDictType');
export const dictDataResource = createResource<DictDataRow, DictDataFilters>('sysDictData');

/** Every dictionary write here refreshes this browser's dictionary cache at once. */
export const DICT_DEPENDENT_KEYS = [DICT_KEYS.all, DICT_KEYS.version] as const;
