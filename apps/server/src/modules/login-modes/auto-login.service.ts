import type { LoginResult } from '@shuzhi/contracts/auth';
import { AUTO_LOGIN_TYPES, type AutoLoginInput } from '@shuzhi/contracts/login-modes';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { type IdentityClaim, identityAdapterFor } from '../../platform/identity/identity.ts';
import { type Client, completeLogin, type Signer, withVisitLog } from './complete-login.ts';
import { userIdByPhone } from './sms-login.service.ts';

/**
 * The local account a provider's claim names. By account, phone or ID card number it must be exactly one
 * account; by usi (type 9) it is the enterprise's user: `sys_user.enterprise` equal to the code, or a user of
 * the organisation whose code is the unified social credit code (the seed's enterprise users), the first by
 * order when the enterprise has several.
 */
async function userIdForClaim(ctx: AppContext, claim: IdentityClaim): Promise<number | null> {
  if (claim.by === 'phone') return userIdByPhone(ctx, claim.value);
  const base = ctx.db.selectFrom('sys_user as u').select('u.id').where('u.is_delete', '=', 0);
  if (claim.by === 'usi') {
    const row = await base
      .where((eb) =>
        eb.or([
          eb('u.enterprise', '=', claim.value),
          eb(
            'u.org_id',
            'in',
            eb.selectFrom('sys_org').select('id').where('code', '=', claim.value).where('is_delete', '=', 0),
          ),
        ]),
      )
      .orderBy('u.order_no')
      .orderBy('u.id')
      .executeTakeFirst();
    return row?.id ?? null;
  }
  const rows = await base
    .where(claim.by === 'account' ? 'u.account' : 'u.id_card_num', '=', claim.value)
    .limit(2)
    .execute();
  return rows.length === 1 ? (rows[0]?.id ?? null) : null;
}

/**
 * Automatic login by URL parameter (SPEC §4): the configured identity provider turns the credential into a
 * claim; an unknown type, a refusal or a provider failure → D1020, a claim naming no local account → D0009.
 * The session carries the login type (9 sends enterprise users to their portal).
 */
export async function autoLogin(
  ctx: AppContext,
  input: AutoLoginInput,
  client: Client,
  who: Signer,
): Promise<LoginResult> {
  return withVisitLog(ctx, client, who, async () => {
    if (!(AUTO_LOGIN_TYPES as readonly number[]).includes(input.type)) throw new AppError('D1020');
    const claim = await identityAdapterFor(ctx.config).resolve({
      type: input.type,
      code: input.code,
      paramName: input.paramName ?? null,
      usi: input.usi ?? null,
    });
    if (!claim) throw new AppError('D1020');
    who.account = claim.value;
    const userId = await userIdForClaim(ctx, claim);
    if (userId === null) throw new AppError('D0009');
    return completeLogin(ctx, userId, { ...client, loginType: input.type }, who);
  });
}
