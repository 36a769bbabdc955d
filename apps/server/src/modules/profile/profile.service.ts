import { type CurrentProfile, FAVICON_PATH } from '@shuzhi/contracts/sys-profile';
import type { AppContext } from '../../platform/context.ts';
import { sysInfo } from '../config/config.service.ts';

export async function currentProfile(ctx: AppContext): Promise<CurrentProfile> {
  const profile = ctx.config.profile;
  return {
    ...profile,
    favicon: profile.favicon ?? FAVICON_PATH,
    timeZone: ctx.config.timeZone,
    ...(await sysInfo(ctx)),
  };
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/** The profile's favicon: its short name in white on a rounded square of its colour. */
export function faviconSvg(ctx: AppContext): string {
  const { shortName, faviconColor } = ctx.config.profile;
  const chars = [...shortName];
  const fontSize = chars.length <= 1 ? 40 : chars.length === 2 ? 26 : 18;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">',
    `<rect width="64" height="64" rx="14" fill="${faviconColor}"/>`,
    `<text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif" font-size="${fontSize}" font-weight="700" fill="#fff">${escapeXml(shortName)}</text>`,
    '</svg>',
  ].join('');
}
