import type { Locale } from '@shuzhi/contracts/i18n';
import type { CurrentProfile } from '@shuzhi/contracts/sys-profile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../http/http.ts';
import { setTimeZone } from '../time/time-zone.ts';

type Profile = CurrentProfile;
type LocalizedText = Partial<Record<Locale, string>> | undefined;

function pickText(text: LocalizedText, locale: string): string {
  if (!text) return '';
  return text[locale as Locale] || text['zh-CN'] || Object.values(text).find(Boolean) || '';
}

function useProfile() {
  return useQuery({
    queryKey: ['sysProfile', 'current'],
    queryFn: async () => {
      const profile = await http.get<Profile>('/api/sysProfile/current', undefined, { silent: true });
      // The product's zone: every time the web shows or computes from the clock is on it.
      setTimeZone(profile.timeZone);
      return profile;
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** Profile texts in the current language; the configured web title wins over the profile's system name. */
export function useBranding() {
  const { i18n, t } = useTranslation();
  const { data: profile } = useProfile();
  const locale = i18n.language;
  const systemName = pickText(profile?.systemName, locale);
  return {
    profile,
    systemTitle: profile?.webTitle || systemName || t('app.name'),
    systemName: systemName || t('app.name'),
    areaName: pickText(profile?.areaName, locale),
    unitName: pickText(profile?.unitName, locale),
    organizer: pickText(profile?.organizer, locale),
    phone: profile?.phone ?? '',
    logo: profile?.webLogo || profile?.favicon || '',
    favicon: profile?.favicon || '',
    copyright: profile?.webCopyright || '',
    icp: profile?.webIcp || '',
  };
}
