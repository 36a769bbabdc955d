import { useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useThemeStore } from '../platform/theme/theme.store.ts';
import { AppProviders, queryClient } from './app-providers.tsx';

function Probe({ load }: { load: () => Promise<string> }) {
  const answer = useQuery({ queryKey: ['probe'], queryFn: load });
  return <span data-testid="probe">{answer.data ?? ''}</span>;
}

describe('AppProviders', () => {
  afterEach(() => {
    act(() => useThemeStore.getState().update({ globalI18n: 'zh-cn' }));
    queryClient.clear();
  });

  it('reloads the server answers on screen when the language changes', async () => {
    const languages: string[] = [];
    const load = async () => {
      const language = useThemeStore.getState().globalI18n;
      languages.push(language);
      return language;
    };
    render(
      <AppProviders>
        <Probe load={load} />
      </AppProviders>,
    );
    expect((await screen.findByText('zh-cn')).textContent).toBe('zh-cn');
    act(() => useThemeStore.getState().update({ globalI18n: 'en' }));
    expect((await screen.findByText('en')).textContent).toBe('en');
    act(() => useThemeStore.getState().update({ primary: '#722ED1' }));
    expect(languages).toEqual(['zh-cn', 'en']);
  });
});
