import type { OnlineUser, OnlineUserPageInput } from '@shuzhi/contracts/online-user';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type OnlineUserFilters = Pick<OnlineUserPageInput, 'account' | 'realName'>;

export const onlineUserResource = createResource<OnlineUser, OnlineUserFilters>('sysOnlineUser');

export const onlineUserApi = {
  forceOffline: (id: number) => http.post<null>('/api/sysOnlineUser/forceOffline', { id }, { silent: true }),
};
