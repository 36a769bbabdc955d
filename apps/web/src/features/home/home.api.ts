import type { HomeSummary } from '@shuzhi/contracts/dashboard';
import type { MyFiling } from '@shuzhi/contracts/diy-collect';
import { http } from '../../platform/http/http.ts';

export type { HomeSummary, MyFiling };

/** The home page's calls. */
export const homeApi = {
  /** The periodic forms the caller files this period, with their own record's state (issue 16 §5). */
  myFilings: () => http.get<MyFiling[]>('/api/diyTableCollect/myFilings', undefined, { silent: true }),
  /** My work: tasks, reviews, returned filings, owned forms' progress, notices (issue 20 §1). */
  summary: () => http.get<HomeSummary>('/api/dashboard/home', undefined, { silent: true }),
};

/** Under `diyTableCollect`, so the portal's invalidations refresh it too. */
export const HOME_KEYS = {
  myFilings: ['diyTableCollect', 'myFilings'] as const,
  summary: ['dashboard', 'home'] as const,
};
