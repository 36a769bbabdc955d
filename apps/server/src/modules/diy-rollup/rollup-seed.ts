import { REPORT_TYPE } from '@shuzhi/contracts/diy-form';
import { type RollupConfig, rollupConfigSchema } from '@shuzhi/contracts/diy-rollup';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { emptyDataTable } from './rollup.service.ts';

/** A demo roll-up: over a demo form (by title), in a category (by name). */
export type SeedRollup = {
  title: string;
  sourceTitle: string;
  category: string;
  orderNo: number;
  remark?: string;
  config: Omit<RollupConfig, 'sourceTableId'>;
};

const POPULATION_SUMS: [string, string][] = [
  ['huji', '户籍人口'],
  ['liudong', '来沪人员'],
  ['jingwai', '境外人员'],
  ['total', '实有人口合计'],
  ['elderly', '60 岁及以上'],
  ['born', '出生'],
  ['died', '死亡'],
  ['movein', '迁入'],
  ['moveout', '迁出'],
  ['net', '净增人口'],
];

export const ROLLUPS: SeedRollup[] = [
  {
    title: '社区人口月报汇总',
    sourceTitle: '社区人口月报',
    category: '社区治理',
    orderNo: 4,
    remark: '按街道汇总各社区（网格）报送的人口月报，可逐级下钻到社区、网格和原始记录',
    config: {
      dimension: 'org',
      orgType: 'street',
      regionLevel: 4,
      statuses: 'submitted',
      measures: [
        ...POPULATION_SUMS.map(([field, label], i) => ({
          id: `m${i + 1}`,
          label,
          agg: 'sum' as const,
          field,
        })),
        { id: `m${POPULATION_SUMS.length + 1}`, label: '报送份数', agg: 'count', field: null },
      ],
    },
  },
];

/**
 * Demo roll-ups by title (deleted ones count, so a removed demo stays removed), added only when their source
 * form is a live published form of the tenant. A roll-up takes its source's owner org and viewers (as one
 * made in 表单管理 does). Call it in the seed's transaction after the demo forms:
 * `await seedRollups(trx, ctx, { tenantId, report })`.
 */
export async function seedRollups(
  trx: Kysely<Database> | Transaction<Database>,
  ctx: Pick<AppContext, 'newId'> & Partial<Pick<AppContext, 'dialect'>>,
  scope: { tenantId: number; report?: Record<string, number> },
  rollups: readonly SeedRollup[] = ROLLUPS,
): Promise<number> {
  if (rollups.length === 0) return 0;
  const { tenantId, report } = scope;
  const existing = new Set(
    (await trx.selectFrom('diy_table').select('title').where('tenant_id', '=', tenantId).execute()).map(
      (f) => f.title,
    ),
  );
  const { dialect } = ctx;
  if (!dialect) throw new Error('Seed roll-ups: the database dialect is needed (their empty data tables)');
  const now = formatDateTime();
  let added = 0;
  for (const rollup of rollups) {
    if (existing.has(rollup.title)) continue;
    const source = await trx
      .selectFrom('diy_table')
      .select(['id', 'owner_org_id', 'viewers', 'version'])
      .where('tenant_id', '=', tenantId)
      .where('title', '=', rollup.sourceTitle)
      .where('report_type', '=', REPORT_TYPE.form)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    if (!source || source.version < 1) continue;
    const category = await trx
      .selectFrom('diy_table_classify')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('name', '=', rollup.category)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    const config = rollupConfigSchema.parse({ ...rollup.config, sourceTableId: source.id });
    const id = ctx.newId();
    await trx
      .insertInto('diy_table')
      .values({
        id,
        create_time: now,
        create_user_id: 0,
        create_user_name: 'seed',
        is_delete: 0,
        tenant_id: tenantId,
        title: rollup.title,
        report_type: REPORT_TYPE.load2,
        classify_id: category?.id ?? null,
        owner_org_id: source.owner_org_id,
        status: STATUS.enabled,
        pwd_hash: null,
        fillers: JSON.stringify({ all: false, orgIds: [], roleIds: [], userIds: [], enterprises: false }),
        viewers: source.viewers,
        reviewer_ids: '[]',
        needs_review: 0,
        draft_design: null,
        draft_revision: 0,
        version: 1,
        last_update_time: now,
        rollup: JSON.stringify(config),
        order_no: rollup.orderNo,
        remark: rollup.remark ?? null,
        record_count: 0,
        create_org_id: source.owner_org_id,
        create_org_name: null,
      })
      .execute();
    await emptyDataTable({ newId: ctx.newId, dialect }, trx, id, now);
    existing.add(rollup.title);
    added += 1;
  }
  if (report) report.diy_table = (report.diy_table ?? 0) + added;
  return added;
}
