import { feedback } from '../feedback/feedback.ts';
import { i18n } from '../i18n/i18n.ts';
import { toLocale } from '../i18n/language.ts';
import { useSessionStore } from '../session/session.store.ts';
import { tokens } from '../storage/storage.ts';
import { useThemeStore } from '../theme/theme.store.ts';
import { createHttpClient } from './http-client.ts';

/** Drops tokens and the in-memory session; the guards then send the user to /login. */
export function clearSession(): void {
  tokens.clear();
  useSessionStore.getState().clear();
}

export const http = createHttpClient({
  baseURL: import.meta.env.VITE_API_URL ?? '',
  tokens,
  language: () => toLocale(useThemeStore.getState().globalI18n),
  text: (key) => i18n.t(`http.${key}`),
  notifyError: (message) => feedback.error(message),
  onUnauthorized: () => {
    clearSession();
    window.location.reload();
  },
});
