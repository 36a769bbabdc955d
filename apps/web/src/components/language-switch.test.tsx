import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../app/app-providers.tsx';
import { i18n, useLanguageStore } from '../platform/i18n/i18n.ts';
import { useThemeStore } from '../platform/theme/theme.store.ts';
import { LanguageSwitch } from './language-switch.tsx';

afterEach(async () => {
  act(() => useThemeStore.getState().update({ globalI18n: 'zh-cn' }));
  await waitFor(() => expect(useLanguageStore.getState().locale).toBe('zh-CN'));
});

describe('LanguageSwitch', () => {
  it('loads the drop-down on the first click and opens it', async () => {
    render(
      <AppProviders>
        <LanguageSwitch />
      </AppProviders>,
    );
    expect(screen.queryByTestId('language-option-en')).toBeNull();
    fireEvent.click(screen.getByTestId('language-switch'));
    expect(await screen.findByTestId('language-option-en')).toBeTruthy();
  });

  it('spins while the chosen language loads, then shows it everywhere: texts, antd, dayjs, <html lang>', async () => {
    render(
      <AppProviders>
        <LanguageSwitch />
      </AppProviders>,
    );
    fireEvent.click(screen.getByTestId('language-switch'));
    fireEvent.click(await screen.findByTestId('language-option-en'));
    expect(useLanguageStore.getState().loading).toBe('en');
    await waitFor(() => expect(screen.getByTestId('language-switch').className).toContain('ant-btn-loading'));
    await waitFor(() =>
      expect(screen.getByTestId('language-switch').className).not.toContain('ant-btn-loading'),
    );
    expect(screen.getByTestId('language-switch').getAttribute('title')).toBe('Language');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.language).toBe('en');
    expect(dayjs.locale()).toBe('en');
    expect(useLanguageStore.getState().antd?.locale).toBe('en');

    act(() => useThemeStore.getState().update({ globalI18n: 'zh-tw' }));
    await waitFor(() => expect(document.documentElement.lang).toBe('zh-TW'));
    expect(dayjs.locale()).toBe('zh-tw');
    expect(useLanguageStore.getState().antd?.locale).toBe('zh-tw');
    expect(i18n.t('greeting.morning')).toBe('早上');
  });
});
