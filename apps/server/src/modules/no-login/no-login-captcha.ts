import { checkCaptcha } from '../../platform/auth/captcha.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { type Caller, logUse, type Scoped } from './no-login-scope.ts';

/**
 * A captcha after repeated submissions (issue 22 §1, docs/no-login.md "Abuse limits"). Submissions are counted
 * per link and IP in the shared cache (so across processes with Redis): the first `FREE_SUBMISSIONS` pass
 * without a captcha; from the next one on, each must carry a solved captcha (`GET /api/sysAuth/captcha`),
 * until `WINDOW_SECONDS` have passed without a submission from that IP through that link.
 */
export const FREE_SUBMISSIONS = 3;
export const WINDOW_SECONDS = 10 * 60;

export type CaptchaAnswer = { codeId?: number | null | undefined; code?: string | null | undefined };

const countKey = (linkId: number, ip: string) => `nologin-submit:${linkId}:${ip}`;

/**
 * Counts this submission (every write that claimed its token and a use of the link, refused saves too) and,
 * beyond the free ones, checks its captcha: none is N1040 (429), a wrong or used one N1041 (403). Called
 * before the save: nothing is written then, the token and the use are given back, so the page sends the
 * same values with the same token again, with a captcha.
 */
export async function checkSubmissionCaptcha(
  ctx: AppContext,
  scope: Pick<Scoped, 'link'>,
  caller: Caller,
  answer: CaptchaAnswer,
): Promise<void> {
  const count = await ctx.cache.incr(countKey(scope.link.id, caller.ip), WINDOW_SECONDS);
  if (count <= FREE_SUBMISSIONS) return;
  if (!answer.codeId || !answer.code?.trim()) {
    await logUse(ctx, scope.link, caller, 'refused', { code: 'N1040' });
    throw new AppError('N1040', undefined, 429);
  }
  if (!(await checkCaptcha(ctx, answer.codeId, answer.code))) {
    await logUse(ctx, scope.link, caller, 'refused', { code: 'N1041' });
    throw new AppError('N1041', undefined, 403);
  }
}
