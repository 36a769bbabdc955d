import { unlockScreenInputSchema } from '@shuzhi/contracts/online-user';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import { verifyPassword } from '../../platform/auth/password-hash.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { decryptPassword } from './auth.service.ts';

/**
 * Unlocking the lock screen (SPEC §3): the signed-in user proves it is still them with their password,
 * SM2-encrypted like at login. A wrong one is D1000; the login rate limit applies, so the lock screen is
 * no way to guess passwords faster than the login page.
 */
export async function unlockScreen(ctx: AppContext, user: AuthUser, cipher: string): Promise<null> {
  const password = decryptPassword(ctx, cipher);
  const row = await ctx.db
    .selectFrom('sys_user')
    .select('password')
    .where('id', '=', user.userId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row || !(await verifyPassword(row.password, password))) throw new AppError('D1000');
  return null;
}

export function lockScreenRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysAuth/unLockScreen',
    access: 'loggedIn',
    limit: 'login',
    summary: "Unlock the lock screen with the signed-in user's SM2-encrypted password (D1000 when wrong)",
    tags: ['sysAuth'],
    body: unlockScreenInputSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => unlockScreen(ctx, currentUser(req), body.password),
  });
}
