import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { PageInput, PageResult } from '@shuzhi/contracts/envelope';
import { dataScopeOf, whereInScope } from '../access/data-scope.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { AppError } from '../errors/app-error.ts';
import { paged } from '../http/paging.ts';
import type { AnyDb, AnyRow, CrudPlan } from './crud-plan.ts';
import { applyFilters } from './filters.ts';

export const LIST_LIMIT = 10_000;

/** The reads of a resource; every one sees live rows only, of the caller's tenant and data scope. */
export type CrudReads = ReturnType<typeof crudReads>;

export function crudReads(plan: CrudPlan) {
  const { ctx, db, table, tenant, ownOrg, columns, toItem } = plan;

  /** Live rows the user may see (soft delete, tenant, data scope), nothing selected yet. */
  async function visible(from: AnyDb, user: AuthUser) {
    let query = from.selectFrom(table).where('is_delete', '=', 0);
    if (tenant && user.accountType !== ACCOUNT_TYPE.superAdmin) {
      query = query.where('tenant_id', '=', user.tenantId);
    }
    // Inside a write the scope lookups must run on the transaction: SQLite has one connection, and a query
    // on `ctx.db` would wait for the transaction that waits for it (a data-scope cache miss deadlocked).
    const scoped = from === db ? ctx : { ...ctx, db: from as unknown as AppContext['db'] };
    if (plan.scope) query = await plan.scope(query, user, scoped);
    else if (ownOrg) {
      // Business rows: the one data-scope rule (rows of the caller's row orgs, or rows they created).
      query = whereInScope(query, await dataScopeOf(scoped, user), 'create_org_id', 'create_user_id');
    }
    return query;
  }

  /** Visible rows narrowed by the request's declared filters. */
  async function filtered(user: AuthUser, input: Record<string, unknown>) {
    return applyFilters(await visible(db, user), plan.filters, input, ctx.dialect);
  }

  async function detail(id: number, user: AuthUser): Promise<AnyRow> {
    const row = await (await visible(db, user)).select(columns).where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('D1002');
    return toItem(row);
  }

  async function list(input: Record<string, unknown>, user: AuthUser): Promise<AnyRow[]> {
    let query = (await filtered(user, input)).select(columns);
    for (const [column, direction] of plan.listOrder) query = query.orderBy(column, direction);
    if (!plan.listOrder.some(([column]) => column === 'id')) query = query.orderBy('id', 'desc');
    return (await query.limit(LIST_LIMIT).execute()).map(toItem);
  }

  async function page(input: AnyRow, user: AuthUser): Promise<PageResult<AnyRow>> {
    return paged((await filtered(user, input)).select(columns), input as PageInput, {
      sortable: plan.sortable,
      defaultOrder: 'id',
      map: toItem,
    });
  }

  return { visible, filtered, detail, list, page };
}
