import { sessionApi } from './session.api.ts';
import { useSessionStore } from './session.store.ts';

/** Loads what the shell needs after a login or a reload: user, menu tree and button permissions. */
export async function loadSession(): Promise<{ menuCount: number }> {
  const [userInfo, menus, ownButtons] = await Promise.all([
    sessionApi.userInfo(),
    sessionApi.loginMenuTree(),
    sessionApi.ownBtnPermList(),
  ]);
  const buttons = Array.from(
    new Set([...(ownButtons ?? []), ...(userInfo.buttons ?? []), ...(userInfo.authBtnList ?? [])]),
  );
  useSessionStore.getState().setSession({ userInfo, menus: menus ?? [], buttons });
  return { menuCount: (menus ?? []).length };
}
