import type { UserInfo, WatermarkConfig } from '@shuzhi/contracts/auth';
import type { MenuNode } from '@shuzhi/contracts/menu';
import { http } from '../http/http.ts';

export type LoginConfig = { secondVerEnabled: boolean; captchaEnabled: boolean; publicKey: string };
export type ClientConfigItem = { code: string; value: string | null };

export const sessionApi = {
  loginConfig: () => http.get<LoginConfig>('/api/sysAuth/loginConfig'),
  userInfo: () => http.get<UserInfo>('/api/sysAuth/userInfo'),
  loginMenuTree: () => http.get<MenuNode[]>('/api/sysMenu/loginMenuTree'),
  ownBtnPermList: () => http.get<string[]>('/api/sysMenu/ownBtnPermList'),
  watermarkConfig: () =>
    http.get<WatermarkConfig>('/api/sysAuth/watermarkConfig', undefined, { silent: true }),
  clientConfig: () => http.get<ClientConfigItem[]>('/api/sysConfig/list', undefined, { silent: true }),
  logout: () => http.post<void>('/api/sysAuth/logout', undefined, { silent: true, signingOut: true }),
  changePassword: (body: { passwordOld: string; passwordNew: string }) =>
    http.post<void>('/api/sysUser/changePwd', body),
};
