import type { SysInfoAnswer } from '@shuzhi/contracts/config-admin';
import type { Locale } from '@shuzhi/contracts/i18n';
import { FAVICON_PATH } from '@shuzhi/contracts/sys-profile';
import { configBool } from '../../platform/config/sys-config.ts';
import type { AppContext } from '../../platform/context.ts';
import { sysInfo } from './config.service.ts';

/** Where every ICP filing number is looked up (MIIT); an ICP line links there. */
const ICP_LOOKUP_URL = 'https://beian.miit.gov.cn/';

/**
 * The public system info with the family's fields: empty settings fall back to the regional profile (logo,
 * title), the unit and area names stand under the title, and the watermark text shows while it is on.
 */
export async function sysInfoAnswer(ctx: AppContext, locale: Locale): Promise<SysInfoAnswer> {
  const info = await sysInfo(ctx);
  const profile = ctx.config.profile;
  const title = info.webTitle || profile.systemName[locale];
  return {
    ...info,
    logo: info.webLogo || (profile.favicon ?? FAVICON_PATH),
    title,
    viceTitle: profile.unitName[locale],
    viceDesc: profile.areaName[locale],
    copyright: info.webCopyright,
    icp: info.webIcp,
    icpUrl: info.webIcp ? ICP_LOOKUP_URL : '',
    watermark: (await configBool(ctx, 'sys_watermark')) ? title : '',
  };
}
