import type { PosPageInput, PosRow } from '@shuzhi/contracts/pos';
import { createResource } from '../../platform/data/resource.ts';

export type { PosRow };
export type PosFilters = Pick<PosPageInput, 'name' | 'code' | 'status'>;

export const posResource = createResource<PosRow, PosFilters>('sysPos');
