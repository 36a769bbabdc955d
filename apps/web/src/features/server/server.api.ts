import type { ServerInfo } from '@shuzhi/contracts/server';
import { http } from '../../platform/http/http.ts';

export type { ServerInfo };

export const serverApi = {
  info: () => http.get<ServerInfo>('/api/sysServer/info'),
};
