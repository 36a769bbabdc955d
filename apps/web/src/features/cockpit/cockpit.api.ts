import {
  COCKPIT_CODE_HEADER,
  type CockpitConfig,
  type CockpitData,
  type CockpitLink,
} from '@shuzhi/contracts/cockpit';
import type { BoardItem } from '@shuzhi/contracts/dashboard';
import { http } from '../../platform/http/http.ts';
import { HttpError, refusalOf } from '../../platform/http/http-client.ts';
import { toLocale } from '../../platform/i18n/language.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';

export type { CockpitConfig, CockpitData, CockpitLink };

const silent = { silent: true } as const;

/**
 * The data call of a signed link (`/jsc?link=…`): a plain fetch with no session, the code in its header. A
 * refusal becomes an `HttpError` carrying the envelope's code (B1021–B1024), whatever the HTTP status.
 */
async function dataByLink(code: string): Promise<CockpitData> {
  let response: Response;
  try {
    response = await fetch(`${import.meta.env.VITE_API_URL ?? ''}/api/cockpit/dataByLink`, {
      headers: {
        Accept: 'application/json',
        'Accept-Language': toLocale(useThemeStore.getState().globalI18n),
        [COCKPIT_CODE_HEADER]: code,
      },
      credentials: 'omit',
    });
  } catch {
    throw new HttpError('network');
  }
  const text = await response.text();
  const status = response.statusText || String(response.status);
  let envelope: { code?: unknown; result?: unknown };
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new HttpError(status, response.status);
  }
  if (envelope.code !== 200) throw refusalOf(text, status);
  return envelope.result as CockpitData;
}

/** The cockpit's calls (`/api/cockpit/*`, docs/dashboards.md "The cockpit"); pages show their own errors. */
export const cockpitApi = {
  data: () => http.get<CockpitData>('/api/cockpit/data', undefined, silent),
  dataByLink,
  config: () => http.get<CockpitConfig>('/api/cockpit/config', undefined, silent),
  saveConfig: (body: CockpitConfig) => http.post<null>('/api/cockpit/config', body, silent),
  links: () => http.get<CockpitLink[]>('/api/cockpit/link/list', undefined, silent),
  addLink: (days: number) => http.post<CockpitLink>('/api/cockpit/link', { days }, silent),
  revokeLink: (id: number) => http.post<null>('/api/cockpit/link/revoke', { id }, silent),
  /** Report forms an admin may put on the cockpit (the data dashboard's list, without roll-ups). */
  forms: async () =>
    (await http.get<BoardItem[]>('/api/dashboard/form/list', undefined, silent)).filter(
      (i) => i.reportType === 1,
    ),
};

export const COCKPIT_KEYS = {
  data: (code: string | null) => ['cockpit', 'data', code ?? ''] as const,
  config: ['cockpit', 'config'] as const,
  forms: ['cockpit', 'forms'] as const,
  links: ['cockpit', 'links'] as const,
};
