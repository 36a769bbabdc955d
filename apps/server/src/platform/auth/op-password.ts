import type { AppContext, AuthUser } from '../context.ts';
import { AppError } from '../errors/app-error.ts';
import { verifyPassword } from './password-hash.ts';
import { sm2Decrypt } from './sm2.ts';

/**
 * Confirms the caller's operation password (the second password sensitive actions ask for), sent
 * SM2-encrypted like the login password: D1012 when the user has none yet, D0010 when the cipher does not
 * decrypt, D1011 when it is wrong. Routes that guard an action call this before doing it.
 */
export async function verifyOpPassword(ctx: AppContext, user: AuthUser, cipher: string): Promise<void> {
  const row = await ctx.db
    .selectFrom('sys_user')
    .select('op_password')
    .where('id', '=', user.userId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row?.op_password) throw new AppError('D1012');
  const plain = sm2Decrypt(cipher, ctx.config.sm2.privateKey);
  if (plain === null) throw new AppError('D0010');
  if (!(await verifyPassword(row.op_password, plain))) throw new AppError('D1011');
}
