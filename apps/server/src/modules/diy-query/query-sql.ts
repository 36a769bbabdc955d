import type { QueryAlias, QueryRunInput } from '@shuzhi/contracts/diy-query';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { dataTableName } from '../../platform/diy/data-table.ts';
import type { RecordReach } from '../../platform/diy/form-access.ts';
import { isSearchColumn, recordCandidates } from '../../platform/diy/text-search.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { columnRef, type ParamPlan, type Plan, type SourcePlan } from './query-plan.ts';

/**
 * The FROM and WHERE of a query report: the base source `s1` and the others LEFT JOINed to it on the filing
 * unit and period (periods are matched by key: two forms' periods are rows of their own) or on equal key fields;
 * every source narrowed in SQL to its tenant, its live records, the counted states and the caller's reach on it
 * (the record list's `recordReach`); the parameters as conditions with bound values. Identifiers come from the
 * plan (the column registry), values are bound: nothing of the request is spliced into the text.
 */

type Where = RawBuilder<SqlBool>;
type ParamValues = NonNullable<QueryRunInput['params']>;

const STATUSES: Record<Plan['config']['statuses'], number[] | null> = {
  submitted: [1, 2],
  approved: [2],
  all: null,
};

/** The caller's reach on a source as a condition (the same rule as `reachable` of the record list). */
function reachCondition(alias: QueryAlias, reach: RecordReach): Where | null {
  if (reach.all) return null;
  const self = sql<SqlBool>`${columnRef(alias, 'create_user_id')} = ${reach.userId}`;
  if (reach.orgIds.length === 0) return self;
  return sql<SqlBool>`(${columnRef(alias, 'create_org_id')} in (${sql.join(reach.orgIds)}) or ${self})`;
}

/**
 * What every row of a source must be: the tenant's, live, counted, in reach. For a joined source the tenant,
 * deleted and state columns are written `+col` (the same value, no index): otherwise SQLite's planner, without
 * statistics, walks a (tenant_id, is_delete, …) index of the joined table for every base row instead of looking
 * the join key up (10,000 × 10,000 rows in `bench:query`); with them it uses the key's index, or builds an
 * automatic one. PostgreSQL plans the join by its statistics either way.
 */
function sourceConditions(plan: Plan, source: SourcePlan, joined = false): Where[] {
  const a = source.alias;
  const col = (name: string) => (joined ? sql`+${columnRef(a, name)}` : columnRef(a, name));
  const out: Where[] = [
    sql<SqlBool>`${col('tenant_id')} = ${plan.tenantId}`,
    sql<SqlBool>`${col('is_delete')} = 0`,
  ];
  const statuses = STATUSES[plan.config.statuses];
  if (statuses) out.push(sql<SqlBool>`${col('status')} in (${sql.join(statuses)})`);
  const reach = reachCondition(a, source.open.reach);
  if (reach) out.push(reach);
  return out;
}

const and = (parts: Where[]): Where =>
  parts.length ? sql<SqlBool>`${sql.join(parts, sql` and `)}` : sql<SqlBool>`1 = 1`;

/** `from diy_data_1 s1 left join … s2 on …`. */
export function fromClause(plan: Plan): RawBuilder<unknown> {
  const [base, ...others] = plan.sources;
  if (!base) throw new AppError('Q1001');
  const parts: RawBuilder<unknown>[] = [
    sql`${sql.table(dataTableName(base.open.form.id))} as ${sql.id(base.alias)}`,
  ];
  for (const s of others) {
    const a = s.alias;
    const on: Where[] = [];
    if (plan.config.join === 'field' && base.key && s.key) {
      on.push(sql<SqlBool>`${columnRef(a, s.key.columnName)} = ${columnRef('s1', base.key.columnName)}`);
    } else {
      on.push(sql<SqlBool>`${columnRef(a, 'create_org_id')} = ${columnRef('s1', 'create_org_id')}`);
      if (base.periodic && s.periodic) {
        // Same period key: the joined form's period whose key is the base record's period's key.
        on.push(
          sql<SqlBool>`${columnRef(a, 'period_id')} = (select kp.id from diy_table_period kp where kp.table_id = ${s.open.form.id} and kp.period_key = (select bp.period_key from diy_table_period bp where bp.id = ${columnRef('s1', 'period_id')}))`,
        );
      }
    }
    on.push(...sourceConditions(plan, s, true));
    parts.push(sql`left join ${sql.table(dataTableName(s.open.form.id))} as ${sql.id(a)} on ${and(on)}`);
  }
  return sql.join(parts, sql` `);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function bad(): never {
  throw new AppError('Q1003');
}

/** One parameter's condition, or null when it is not set. Values that do not fit the parameter: Q1003. */
function paramCondition(ctx: AppContext, plan: Plan, p: ParamPlan, value: ParamValues[string]): Where | null {
  if (value === null || value === undefined || value === '') return null;
  const source = plan.sources.find((s) => s.alias === p.source);
  if (!source) return null;
  const a = source.alias;
  const text = typeof value === 'number' ? String(value) : value;
  switch (p.kind) {
    case 'period': {
      if (typeof text !== 'string' || !/^\d{1,19}$/.test(text)) bad();
      return sql<SqlBool>`${columnRef(a, 'period_id')} = ${Number(text)}`;
    }
    case 'org': {
      if (typeof text !== 'string' || !/^\d{1,19}$/.test(text)) bad();
      const id = Number(text);
      return sql<SqlBool>`${columnRef(a, 'create_org_id')} in (select o.id from sys_org o where o.tenant_id = ${plan.tenantId} and (o.id = ${id} or (',' || o.full_ids || ',') like ${`%,${id},%`}))`;
    }
    case 'region': {
      if (typeof text !== 'string' || !/^\d{1,12}$/.test(text) || !p.expr) bad();
      return sql<SqlBool>`${p.expr} like ${`${text}%`}`;
    }
    case 'option': {
      if (typeof text !== 'string' || !p.expr || !p.column) bad();
      if (p.column.storageKind === 'json')
        return sql<SqlBool>`${p.expr} like ${likeContaining(JSON.stringify(text))} escape '\\'`;
      if (p.column.storageKind === 'integer' || p.column.storageKind === 'decimal') {
        const n = Number(text);
        if (!Number.isFinite(n)) bad();
        return sql<SqlBool>`${p.expr} = ${n}`;
      }
      return sql<SqlBool>`${p.expr} = ${text}`;
    }
    case 'dateRange': {
      if (!Array.isArray(value) || !p.expr) bad();
      const [from, to] = value;
      if ((from && !DATE.test(from)) || (to && !DATE.test(to))) bad();
      const parts: Where[] = [];
      if (from) parts.push(sql<SqlBool>`${p.expr} >= ${from}`);
      if (to) parts.push(sql<SqlBool>`${p.expr} <= ${`${to} 23:59:59`}`);
      return parts.length ? and(parts) : null;
    }
    case 'keyword': {
      if (typeof text !== 'string') bad();
      const op = sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
      const pattern = likeContaining(text);
      const open = source.open;
      const columns = p.column ? [p.column] : open.columns.filter(isSearchColumn);
      const ors = [
        ...(p.column ? [] : [sql<SqlBool>`${columnRef(a, 'data_no')} ${op} ${pattern} escape '\\'`]),
        ...columns.map((c) => sql<SqlBool>`${columnRef(a, c.columnName)} ${op} ${pattern} escape '\\'`),
      ];
      const like = sql<SqlBool>`(${sql.join(ors, sql` or `)})`;
      // The text-search index narrows to its candidates (docs/search.md); the LIKE decides.
      const narrowed = recordCandidates(
        ctx.dialect,
        open.form.id,
        open.columns,
        text,
        p.column ?? undefined,
        `${a}.id`,
      );
      return narrowed ? and([like, narrowed]) : like;
    }
    default:
      return null;
  }
}

/** The WHERE of a run: the base source's conditions and the parameters set. */
export function whereClause(ctx: AppContext, plan: Plan, values: ParamValues): RawBuilder<SqlBool> {
  const base = plan.sources[0];
  if (!base) throw new AppError('Q1001');
  const parts = sourceConditions(plan, base);
  for (const p of plan.params) {
    const condition = paramCondition(ctx, plan, p, values[p.id]);
    if (condition) parts.push(condition);
  }
  return and(parts);
}
