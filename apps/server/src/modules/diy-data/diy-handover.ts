import type { registerSubmitInputSchema, updateCreateUserInputSchema } from '@shuzhi/contracts/diy-table';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { updateRecords } from '../../platform/diy/dynamic-table.ts';
import {
  type Caller,
  inAudience,
  parseAudience,
  parsePeriodSettings,
} from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { findRow, openForm, recordFacts } from './diy-data.service.ts';
import { writeHistory } from './diy-record-history.ts';
import { assertNotFiled } from './diy-record-save.ts';
import { assertPeriodNotClosed, touchForm } from './diy-review.ts';

/**
 * Hand-over and submission events of report-form records (issue 5 §5):
 * `POST /api/diyTable/UpdateCreateUser | RegisterSubmit`. Every write runs in one transaction (all records or
 * none) and writes its `diy_record_history` steps there.
 */

/** A live, enabled user of the tenant as the audience rules see them, or null. */
async function audienceMember(db: Db, tenantId: number, userId: number) {
  const user = await db
    .selectFrom('sys_user')
    .select(['id', 'real_name', 'org_id'])
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where('status', '=', STATUS.enabled)
    .executeTakeFirst();
  if (!user) return null;
  const ext = await db
    .selectFrom('sys_user_ext_org')
    .select('org_id')
    .where('user_id', '=', userId)
    .execute();
  const orgIds = [
    ...new Set([
      ...(user.org_id ? [Number(user.org_id)] : []),
      ...ext.map((r: { org_id: unknown }) => Number(r.org_id)),
    ]),
  ];
  const orgs: { id: unknown; full_ids: string; type: string | null; name: string }[] = orgIds.length
    ? await db
        .selectFrom('sys_org')
        .select(['id', 'full_ids', 'type', 'name'])
        .where('id', 'in', orgIds)
        .where('tenant_id', '=', tenantId)
        .where('is_delete', '=', 0)
        .execute()
    : [];
  const chain = new Set<number>();
  for (const org of orgs) for (const id of org.full_ids.split(',')) if (id) chain.add(Number(id));
  const own = orgs.find((o) => Number(o.id) === Number(user.org_id));
  const roles = await db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', '=', userId)
    .where('r.status', '=', STATUS.enabled)
    .where('r.is_delete', '=', 0)
    .execute();
  return {
    userId: Number(user.id),
    name: String(user.real_name),
    orgId: own ? Number(own.id) : null,
    orgName: own?.name ?? null,
    caller: {
      user: { userId: Number(user.id) },
      orgChain: chain,
      roleIds: new Set(roles.map((r: { id: unknown }) => Number(r.id))),
      enterprise: own?.type === 'enterprise',
    } as unknown as Caller,
  };
}

/**
 * `POST /api/diyTable/UpdateCreateUser`: form admins (myAuth.design) and reviewers hand records to another
 * user, who must be a live, enabled user of the tenant inside the form's fillers (F1013); the records take
 * the user's name and org. History step `handover` with the names before and after.
 */
export async function handOverRecords(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof updateCreateUserInputSchema>,
): Promise<void> {
  const ids = [...new Set(input.ids)];
  await ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, input.tableId, trx);
    if (!open.auth.design && !open.auth.audit) throw new AppError('F1001');
    const target = await audienceMember(trx, open.form.tenant_id, input.userId);
    if (!target || !inAudience(parseAudience(open.form.fillers), target.caller)) throw new AppError('F1013');
    const now = formatDateTime();
    // One record per unit and period: the receiving unit must not end up with two in a period.
    const onePerOrg = parsePeriodSettings(open.form.period).onePerOrg;
    for (const id of ids) {
      const row = await findRow(trx, open, id);
      await assertPeriodNotClosed(trx, open, row);
      if (onePerOrg && row.period_id !== null)
        await assertNotFiled(trx, open, Number(row.period_id), target, { recordId: row.id, code: 'F1036' });
      const changes = [
        { field: 'createUserName', label: '填报人', before: row.create_user_name, after: target.name },
        { field: 'createOrgName', label: '填报单位', before: row.create_org_name, after: target.orgName },
      ];
      await updateRecords(trx, open.form.id, {
        create_user_id: target.userId,
        create_user_name: target.name,
        create_org_id: target.orgId,
        create_org_name: target.orgName,
        update_time: now,
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
        .where('id', '=', id)
        .execute();
      await writeHistory(ctx, trx, open, id, 'handover', changes, row.version, now);
    }
    await touchForm(trx, open, now);
  });
}

/**
 * `POST /api/diyTable/RegisterSubmit`: the record's filler (their own or their org's record) or a form admin
 * records that the record was handed in (paper, phone…): history step `registerSubmit` with the comment.
 */
export async function registerSubmit(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof registerSubmitInputSchema> & { id: number },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, input.tableId, trx);
    const row = await findRow(trx, open, input.id);
    const facts = recordFacts(row);
    const owned =
      open.auth.filler &&
      (facts.create_user_id === user.userId ||
        (open.caller.orgId !== null && facts.create_org_id === open.caller.orgId));
    if (!owned && !open.auth.admin) throw new AppError('F1001');
    const now = formatDateTime();
    await writeHistory(ctx, trx, open, row.id, 'registerSubmit', [], row.version, now, input.comment || null);
  });
}
