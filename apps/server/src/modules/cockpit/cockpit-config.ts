import { type CockpitConfig, cockpitConfigSchema, DEFAULT_COCKPIT_CONFIG } from '@shuzhi/contracts/cockpit';
import { REPORT_TYPE } from '@shuzhi/contracts/diy-form';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { formWithAuth } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/** The tenant's cockpit settings; the defaults until an admin saves some (or when the stored JSON is unreadable). */
export async function cockpitConfig(ctx: AppContext, tenantId: number): Promise<CockpitConfig> {
  const row = await ctx.db
    .selectFrom('sys_cockpit')
    .select('config')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return DEFAULT_COCKPIT_CONFIG;
  let stored: unknown = null;
  try {
    stored = JSON.parse(row.config);
  } catch {
    return DEFAULT_COCKPIT_CONFIG;
  }
  const parsed = cockpitConfigSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_COCKPIT_CONFIG;
}

/**
 * `POST /api/cockpit/config` (cockpit:config): every chosen form must be a published report form whose
 * records the admin may query (B1020 naming it otherwise), so that a viewer never sees a form the admin could
 * not. One row per tenant, replaced whole.
 */
export async function saveCockpitConfig(
  ctx: AppContext,
  user: AuthUser,
  input: CockpitConfig,
): Promise<null> {
  for (const id of input.formIds) {
    const found = await formWithAuth(ctx, user, id).catch((error: unknown) => {
      if (error instanceof AppError) return null;
      throw error;
    });
    const ok = found?.form.report_type === REPORT_TYPE.form && found.auth.published && found.auth.query;
    if (!ok) throw new AppError('B1020', { form: found?.form.title ?? String(id) });
  }
  const values = {
    config: JSON.stringify(input),
    update_time: formatDateTime(),
    update_user_id: user.userId,
    update_user_name: user.realName,
  };
  await ctx.db
    .insertInto('sys_cockpit')
    .values({ id: ctx.newId(), tenant_id: user.tenantId, ...values })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
    .execute();
  return null;
}
