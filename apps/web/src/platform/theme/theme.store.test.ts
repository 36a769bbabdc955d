import { beforeEach, describe, expect, it, vi } from 'vitest';

describe('theme config persistence', () => {
  beforeEach(() => {
    vi.resetModules();
    window.localStorage.clear();
  });

  it('restores a stored config under the host-prefixed key', async () => {
    window.localStorage.setItem(
      `${window.location.host}:themeConfig`,
      JSON.stringify({
        state: { primary: '#722ED1', layout: 'classic', globalI18n: 'en', isIsDark: true },
        version: 0,
      }),
    );
    const { useThemeStore } = await import('./theme.store.ts');
    const state = useThemeStore.getState();
    expect(state.primary).toBe('#722ED1');
    expect(state.layout).toBe('classic');
    expect(state.globalI18n).toBe('en');
    expect(state.isIsDark).toBe(true);
    expect(state.globalComponentSize).toBe('middle');
  });

  it('falls back to defaults for unknown stored values', async () => {
    window.localStorage.setItem(
      `${window.location.host}:themeConfig`,
      JSON.stringify({ state: { primary: 'red', layout: 'weird', globalI18n: 'fr' }, version: 0 }),
    );
    const { useThemeStore, DEFAULT_THEME } = await import('./theme.store.ts');
    const state = useThemeStore.getState();
    expect(state.primary).toBe(DEFAULT_THEME.primary);
    expect(state.layout).toBe('transverse');
    expect(state.globalI18n).toBe('zh-cn');
  });

  it('writes changes back', async () => {
    const { useThemeStore } = await import('./theme.store.ts');
    useThemeStore.getState().update({ primary: '#13C2C2' });
    const stored = JSON.parse(window.localStorage.getItem(`${window.location.host}:themeConfig`) ?? '{}');
    expect(stored.state.primary).toBe('#13C2C2');
    expect(stored.state.update).toBeUndefined();
  });
});
