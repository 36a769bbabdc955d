import type { Localized } from './i18n.ts';

/**
 * The query reports' (Q, issue 21 §1) part of the business error catalogue; `BUSINESS_ERRORS` in errors.ts holds
 * them with the rest.
 */
export const QUERY_ERRORS = {
  Q1000: {
    'zh-CN': '查询报表不存在或您无权查看',
    en: 'The query report does not exist or you may not see it',
    'zh-TW': '查詢報表不存在或您無權查看',
  },
  Q1001: {
    'zh-CN': '查询报表的来源表单不存在、未发布或您无权查看',
    en: 'A source form of the query report does not exist, is not published or you may not see it',
    'zh-TW': '查詢報表的來源表單不存在、未發佈或您無權查看',
  },
  Q1002: {
    'zh-CN': '查询报表的配置有误',
    en: 'The query report’s settings are not valid',
    'zh-TW': '查詢報表的設定有誤',
  },
  Q1003: {
    'zh-CN': '查询参数的值无效',
    en: 'A parameter value is not valid',
    'zh-TW': '查詢參數的值無效',
  },
  Q1004: {
    'zh-CN': '来源表单已停用',
    en: 'A source form is disabled',
    'zh-TW': '來源表單已停用',
  },
} as const satisfies Record<string, Localized>;
