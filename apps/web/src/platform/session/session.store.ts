import type { UserInfo } from '@shuzhi/contracts/auth';
import type { MenuNode } from '@shuzhi/contracts/menu';
import { create } from 'zustand';

type SessionState = {
  userInfo: UserInfo | null;
  menus: MenuNode[];
  buttons: string[];
  /** Set by the login result (isDefPwd / isUpdatePwd) until the password is changed. */
  passwordChange: 'default' | 'expired' | null;
  setSession(session: { userInfo: UserInfo; menus: MenuNode[]; buttons: string[] }): void;
  setUserInfo(userInfo: UserInfo): void;
  setPasswordChange(reason: 'default' | 'expired' | null): void;
  clear(): void;
};

export const useSessionStore = create<SessionState>()((set) => ({
  userInfo: null,
  menus: [],
  buttons: [],
  passwordChange: null,
  setSession: ({ userInfo, menus, buttons }) => set({ userInfo, menus, buttons }),
  setUserInfo: (userInfo) => set({ userInfo }),
  setPasswordChange: (passwordChange) => set({ passwordChange }),
  clear: () => set({ userInfo: null, menus: [], buttons: [], passwordChange: null }),
}));
