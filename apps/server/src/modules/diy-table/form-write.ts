import { REPORT_TYPE } from '@shuzhi/contracts/diy-form';
import type { PeriodSettings } from '@shuzhi/contracts/diy-period';
import type { formAddInputSchema, formUpdateInputSchema } from '@shuzhi/contracts/diy-table';
import type { z } from 'zod';
import type { DiyTableTable } from '../../db/schema.ts';
import { assertOrgInScope, dataScopeOf } from '../../platform/access/data-scope.ts';
import { hashPassword } from '../../platform/auth/password-hash.ts';
import { sm2Decrypt } from '../../platform/auth/sm2.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { adminForm, PWD_OK_PREFIX } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from './form-rows.ts';
import { EMPTY_DESIGN } from './form-version.ts';

/** Form settings: add, update (settings, audiences, password) and soft delete. */

type AddInput = z.output<typeof formAddInputSchema>;
type UpdateInput = z.output<typeof formUpdateInputSchema>;

/** Period settings as stored: null for a form without periods. */
function periodText(settings: PeriodSettings | undefined): string | null {
  return settings && settings.kind !== 'none' ? JSON.stringify(settings) : null;
}

/** D1002 unless every id is a live row of the tenant. */
async function assertTenantRows(
  db: Db,
  table: 'sys_org' | 'sys_role' | 'sys_user',
  ids: readonly number[],
  tenantId: number,
): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('id', 'in', wanted)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  if (rows.length !== wanted.length) throw new AppError('D1002');
}

/** A form password (SM2 cipher) as its argon2 hash; D0010 when it does not decrypt, F1011 for a bad length. */
export async function formPasswordHash(ctx: AppContext, cipher: string): Promise<string> {
  const plain = sm2Decrypt(cipher, ctx.config.sm2.privateKey);
  if (plain === null) throw new AppError('D0010');
  const length = [...plain].length;
  if (length < 6 || length > 12) throw new AppError('F1011');
  return hashPassword(plain, ctx.passwordHashing);
}

async function checkSettings(
  ctx: AppContext,
  trx: Db,
  user: AuthUser,
  tenantId: number,
  input: Partial<AddInput>,
): Promise<void> {
  if (input.categoryId) {
    const category = await trx
      .selectFrom('diy_table_classify')
      .select('id')
      .where('id', '=', input.categoryId)
      .where('tenant_id', '=', tenantId)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    if (!category) throw new AppError('F1010');
  }
  if (input.ownerOrgId) {
    await assertTenantRows(trx, 'sys_org', [input.ownerOrgId], tenantId);
    assertOrgInScope(await dataScopeOf(ctx, user), input.ownerOrgId);
  }
  for (const audience of [input.fillers, input.viewers]) {
    if (!audience) continue;
    await assertTenantRows(trx, 'sys_org', audience.orgIds, tenantId);
    await assertTenantRows(trx, 'sys_role', audience.roleIds, tenantId);
    await assertTenantRows(trx, 'sys_user', audience.userIds, tenantId);
  }
  if (input.reviewerIds) await assertTenantRows(trx, 'sys_user', input.reviewerIds, tenantId);
}

export async function addForm(ctx: AppContext, user: AuthUser, input: AddInput): Promise<number> {
  const id = ctx.newId();
  const pwd = input.password ? await formPasswordHash(ctx, input.password) : null;
  await ctx.db.transaction().execute(async (trx) => {
    await checkSettings(ctx, trx, user, user.tenantId, input);
    const owner = input.ownerOrgId ?? user.orgId;
    const org = await trx
      .selectFrom('sys_org')
      .select('name')
      .where('id', '=', user.orgId)
      .executeTakeFirst();
    await trx
      .insertInto('diy_table')
      .values({
        id,
        create_time: formatDateTime(),
        create_user_id: user.userId,
        create_user_name: user.realName,
        is_delete: 0,
        tenant_id: user.tenantId,
        title: input.title,
        report_type: input.reportType ?? REPORT_TYPE.form,
        classify_id: input.categoryId ?? null,
        owner_org_id: owner || null,
        status: input.status,
        pwd_hash: pwd,
        fillers: JSON.stringify(input.fillers),
        viewers: JSON.stringify(input.viewers),
        reviewer_ids: JSON.stringify(input.reviewerIds),
        needs_review: input.needsReview ? 1 : 0,
        draft_design: JSON.stringify(EMPTY_DESIGN),
        draft_revision: 0,
        version: 0,
        order_no: input.orderNo,
        remark: input.remark ?? null,
        period: periodText(input.period),
        record_count: 0,
        create_org_id: user.orgId || null,
        create_org_name: org?.name ?? null,
      })
      .execute();
  });
  return id;
}

export async function updateForm(ctx: AppContext, user: AuthUser, input: UpdateInput): Promise<void> {
  const pwd = input.password ? await formPasswordHash(ctx, input.password) : undefined;
  await ctx.db.transaction().execute(async (trx) => {
    const { form } = await adminForm(ctx, user, input.id, trx);
    await checkSettings(ctx, trx, user, form.tenant_id, input);
    const values: Partial<DiyTableTable> = {
      update_time: formatDateTime(),
      update_user_id: user.userId,
      update_user_name: user.realName,
    };
    if (input.title !== undefined) values.title = input.title;
    if (input.categoryId !== undefined) values.classify_id = input.categoryId ?? null;
    if (input.ownerOrgId) values.owner_org_id = input.ownerOrgId;
    if (input.status !== undefined) values.status = input.status;
    if (input.fillers !== undefined) values.fillers = JSON.stringify(input.fillers);
    if (input.viewers !== undefined) values.viewers = JSON.stringify(input.viewers);
    if (input.reviewerIds !== undefined) values.reviewer_ids = JSON.stringify(input.reviewerIds);
    if (input.needsReview !== undefined) values.needs_review = input.needsReview ? 1 : 0;
    if (input.orderNo !== undefined) values.order_no = input.orderNo;
    if (input.remark !== undefined) values.remark = input.remark ?? null;
    // Periods already made keep their dates and versions; new ones follow the new settings (docs/periods.md).
    if (input.period !== undefined) values.period = periodText(input.period);
    if (pwd) values.pwd_hash = pwd;
    else if (input.clearPassword) values.pwd_hash = null;
    await trx.updateTable('diy_table').set(values).where('id', '=', form.id).execute();
  });
  if (pwd || input.clearPassword) await ctx.cache.delPrefix(`${PWD_OK_PREFIX}${input.id}:`);
}

/** Soft delete: the form leaves every list and goes to the recycle bin (its data table stays). */
export async function deleteForms(ctx: AppContext, user: AuthUser, ids: readonly number[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    for (const id of ids) {
      const { form, auth } = await adminForm(ctx, user, id, trx);
      if (!user.permissions.has('diyTable:delete') || !auth.admin) throw new AppError('F1001');
      const now = formatDateTime();
      await trx
        .updateTable('diy_table')
        .set({
          is_delete: 1,
          delete_time: now,
          delete_user_name: user.realName,
          update_time: now,
          update_user_id: user.userId,
          update_user_name: user.realName,
        })
        .where('id', '=', form.id)
        .execute();
    }
  });
}
