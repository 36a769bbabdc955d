import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import type {
  PeriodLog,
  PeriodPageRow,
  PeriodRow,
  PeriodState,
  periodPageInputSchema,
} from '@shuzhi/contracts/diy-period';
import { type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { formatDate } from '../../platform/db/time.ts';
import { type AnyDb, dataTableName } from '../../platform/diy/data-table.ts';
import {
  type Caller,
  formAuth,
  formWithAuth,
  loadCaller,
  parsePeriodSettings,
  type RecordReach,
  recordReach,
} from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import { displayName, periodState } from './period-calendar.ts';
import { currentPeriods, ensurePeriods } from './period-making.ts';
import { adminPeriod, type Db, type PeriodDbRow } from './period-store.ts';

/** Reading periods: a form's list, the administrators' page, and a period's log, with record counts. */

type Counts = { recordCount: number; submittedCount: number };

/** Live records and submitted-or-approved records per period of one form, within the caller's reach. */
async function periodCounts(
  db: Db,
  form: Pick<DiyTableTable, 'id' | 'tenant_id' | 'version'>,
  reach: RecordReach,
  periodIds: readonly number[],
): Promise<Map<number, Counts>> {
  const out = new Map<number, Counts>();
  if (periodIds.length === 0 || form.version <= 0) return out;
  let query = (db as AnyDb)
    .selectFrom(dataTableName(form.id))
    .select((eb) => [
      'period_id',
      eb.fn.countAll<number | string>().as('n'),
      sql<
        number | string
      >`sum(case when status in (${RECORD_STATUS.submitted}, ${RECORD_STATUS.approved}) then 1 else 0 end)`.as(
        's',
      ),
    ])
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', form.tenant_id)
    .where('period_id', 'in', [...periodIds]);
  if (!reach.all) {
    // biome-ignore lint/suspicious/noExplicitAny: the data table is not in the static schema.
    query = query.where((eb: ExpressionBuilder<any, any>) => {
      const self = eb('create_user_id', '=', reach.userId);
      return reach.orgIds.length > 0 ? eb.or([eb('create_org_id', 'in', reach.orgIds), self]) : self;
    });
  }
  const rows = (await query.groupBy('period_id').execute()) as {
    period_id: number | string;
    n: number | string;
    s: number | string | null;
  }[];
  for (const r of rows) {
    out.set(Number(r.period_id), { recordCount: Number(r.n), submittedCount: Number(r.s ?? 0) });
  }
  return out;
}

function toPeriodRow(row: PeriodDbRow, today: string, counts: Counts | undefined, locale: Locale): PeriodRow {
  return {
    id: row.id,
    tableId: row.table_id,
    key: row.period_key,
    name: displayName(row, locale),
    startDate: row.start_date,
    endDate: row.end_date,
    dueDate: row.due_date,
    graceUntil: row.grace_until,
    reopenUntil: row.reopen_until,
    version: row.version,
    state: periodState(row, today),
    closeTime: row.close_time,
    closeUserName: row.close_user_name,
    recordCount: counts?.recordCount ?? 0,
    submittedCount: counts?.submittedCount ?? 0,
    createTime: row.create_time,
  };
}

/** `GET /list?tableId=`: the form's periods, newest first, for anyone who may query the form. */
export async function periodList(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  locale: Locale,
  now: Date = new Date(),
): Promise<PeriodRow[]> {
  const { form, auth, caller } = await formWithAuth(ctx, user, tableId);
  if (!auth.query) throw new AppError('F1001');
  await ensurePeriods(ctx, ctx.db, form, now);
  const rows = await ctx.db
    .selectFrom('diy_table_period')
    .selectAll()
    .where('table_id', '=', form.id)
    .where('tenant_id', '=', form.tenant_id)
    .orderBy('start_date', 'desc')
    .execute();
  const counts = await periodCounts(
    ctx.db,
    form,
    recordReach(auth, caller),
    rows.map((r) => r.id),
  );
  const today = formatDate(now);
  return rows.map((r) => toPeriodRow(r, today, counts.get(r.id), locale));
}

/** Live periodic forms the caller administers (their tenant, owner org in their data scope). */
async function adminPeriodicForms(ctx: AppContext, caller: Caller): Promise<DiyTableTable[]> {
  let query = ctx.db
    .selectFrom('diy_table')
    .selectAll()
    .where('is_delete', '=', 0)
    .where('period', 'is not', null);
  if (caller.user.accountType !== ACCOUNT_TYPE.superAdmin) {
    query = query.where('tenant_id', '=', caller.user.tenantId);
  }
  const forms = await query.orderBy('id').execute();
  return forms.filter(
    (form) => parsePeriodSettings(form.period).kind !== 'none' && formAuth(form, caller).admin,
  );
}

/** SQL of a computed state (the page's state filter), for `today`. */
function stateCondition(
  eb: ExpressionBuilder<Database, 'diy_table_period'>,
  state: PeriodState,
  today: string,
) {
  const open = eb('closed', '=', 0);
  const inGrace = eb.or([eb('grace_until', '>=', today), eb('reopen_until', '>=', today)]);
  switch (state) {
    case 'closed':
      return eb('closed', '=', 1);
    case 'upcoming':
      return eb.and([open, eb('start_date', '>', today)]);
    case 'open':
      return eb.and([open, eb('start_date', '<=', today), eb('due_date', '>=', today)]);
    case 'grace':
      return eb.and([open, eb('due_date', '<', today), inGrace]);
    default:
      return eb.and([open, eb('due_date', '<', today), eb.not(inGrace)]);
  }
}

const PAGE_SORT: Record<string, string> = {
  startDate: 'start_date',
  dueDate: 'due_date',
  name: 'name',
  createTime: 'create_time',
  tableId: 'table_id',
};

/** `POST /page` (填报周期): periods of the periodic forms the caller administers, newest first. */
export async function periodPage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof periodPageInputSchema>,
  locale: Locale,
  now: Date = new Date(),
): Promise<PageResult<PeriodPageRow>> {
  const caller = await loadCaller(ctx, user);
  let forms = await adminPeriodicForms(ctx, caller);
  if (typeof input.tableId === 'number') forms = forms.filter((f) => f.id === input.tableId);
  const today = formatDate(now);
  if (forms.length === 0) return pageResult([], 0, input.page, input.pageSize);
  await currentPeriods(ctx, forms, locale, now);
  const byId = new Map(forms.map((f) => [f.id, f]));
  let query = ctx.db
    .selectFrom('diy_table_period')
    .selectAll()
    .where(
      'table_id',
      'in',
      forms.map((f) => f.id),
    );
  if (input.state) {
    const state = input.state;
    query = query.where((eb) => stateCondition(eb, state, today));
  }
  if (input.keyword) {
    const pattern = likeContaining(input.keyword);
    const op = sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
    const titles = forms
      .filter((f) => f.title.toLowerCase().includes((input.keyword ?? '').toLowerCase()))
      .map((f) => f.id);
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`${sql.ref('name')} ${op} ${pattern} escape '\\'`,
        ...(titles.length ? [eb('table_id', 'in', titles)] : []),
      ]),
    );
  }
  const page = await paged(query, input, { sortable: PAGE_SORT, defaultOrder: 'start_date' });
  const counts = new Map<number, Counts>();
  for (const tableId of new Set(page.items.map((r) => r.table_id))) {
    const form = byId.get(tableId) as DiyTableTable;
    const ids = page.items.filter((r) => r.table_id === tableId).map((r) => r.id);
    for (const [id, c] of await periodCounts(
      ctx.db,
      form,
      recordReach(formAuth(form, caller), caller),
      ids,
    )) {
      counts.set(id, c);
    }
  }
  return {
    ...page,
    items: page.items.map((r) => ({
      ...toPeriodRow(r, today, counts.get(r.id), locale),
      tableTitle: byId.get(r.table_id)?.title ?? '',
    })),
  };
}

/** `GET /log?id=`: the steps of a period of a form the caller administers, newest first. */
export async function periodLog(ctx: AppContext, user: AuthUser, id: number): Promise<PeriodLog[]> {
  await adminPeriod(ctx, ctx.db, user, id);
  const rows = await ctx.db
    .selectFrom('diy_table_period_log')
    .selectAll()
    .where('period_id', '=', id)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action as PeriodLog['action'],
    comment: r.comment,
    changes: parseChanges(r.changes),
    userName: r.user_name,
    createTime: r.create_time,
  }));
}

function parseChanges(text: string): PeriodLog['changes'] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
