import type { RegionSyncCounts } from '@shuzhi/contracts/region';
import { REGION_NAME_SEPARATOR, REGION_PATH_SEPARATOR } from '@shuzhi/contracts/region';
import type { Insertable } from 'kysely';
import type { SysRegionTable } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import type { RegionSource } from './region.source.ts';

/** Rows per multi-row INSERT: 13 columns × 500 stays far below both dialects' parameter limits. */
const BATCH = 500;

type Known = { name: string; fullName: string; fullCode: string; local: boolean };
type Path = { id: number; fullCode: string; fullName: string };

export type ImportProgress = (done: number, total: number) => void;

/**
 * Imports a region source into `sys_region` (the same routine serves the first start and `sync`):
 * - a code the table lacks is inserted, with the code as id and the parent's id from the parent's code;
 * - a bundled row whose name or path differs is updated (a sync restores the bundled names);
 * - local additions (`is_local` 1) are never touched, and a bundled code that an admin deleted stays deleted;
 * - nothing is ever deleted, so the table is never empty while a sync runs.
 * Each chunk of the source is written in one transaction of multi-row inserts, BATCH rows each.
 */
export async function importRegions(
  ctx: AppContext,
  source: RegionSource,
  onProgress?: ImportProgress,
): Promise<RegionSyncCounts> {
  const started = performance.now();
  const known = new Map<string, Known>();
  const existing = await ctx.db
    .selectFrom('sys_region')
    .select(['code', 'name', 'full_name', 'full_code', 'is_local'])
    .execute();
  for (const r of existing) {
    known.set(r.code, {
      name: r.name,
      fullName: r.full_name,
      fullCode: r.full_code,
      local: r.is_local === 1,
    });
  }
  const paths = new Map<string, Path>();
  const counts = { total: 0, inserted: 0, updated: 0, unchanged: 0, local: 0 };
  const total = source.total ?? 0;
  const now = formatDateTime();

  for await (const chunk of source.chunks()) {
    const inserts: Insertable<SysRegionTable>[] = [];
    const updates: { code: string; name: string; fullName: string; fullCode: string }[] = [];
    for (const seed of chunk) {
      counts.total++;
      const parent = seed.parentCode ? paths.get(seed.parentCode) : undefined;
      if (seed.parentCode && !parent) continue; // an orphan of the data: skipped
      const id = Number(seed.code);
      const fullCode = parent ? `${parent.fullCode}${REGION_PATH_SEPARATOR}${seed.code}` : seed.code;
      const fullName = parent ? `${parent.fullName}${REGION_NAME_SEPARATOR}${seed.name}` : seed.name;
      paths.set(seed.code, { id, fullCode, fullName });
      const had = known.get(seed.code);
      if (!had) {
        inserts.push({
          id,
          create_time: now,
          update_time: null,
          create_user_id: null,
          create_user_name: null,
          update_user_id: null,
          update_user_name: null,
          is_delete: 0,
          pid: parent ? parent.id : 0,
          code: seed.code,
          name: seed.name,
          short_name: null,
          level: seed.level,
          full_code: fullCode,
          full_name: fullName,
          is_local: 0,
          order_no: 100,
          remark: null,
        });
      } else if (had.local) {
        counts.local++;
      } else if (had.name !== seed.name || had.fullName !== fullName || had.fullCode !== fullCode) {
        updates.push({ code: seed.code, name: seed.name, fullName, fullCode });
      } else {
        counts.unchanged++;
      }
    }
    if (inserts.length > 0 || updates.length > 0) {
      await ctx.db.transaction().execute(async (trx) => {
        for (let i = 0; i < inserts.length; i += BATCH) {
          await trx
            .insertInto('sys_region')
            .values(inserts.slice(i, i + BATCH))
            .execute();
        }
        for (const u of updates) {
          await trx
            .updateTable('sys_region')
            .set({ name: u.name, full_name: u.fullName, full_code: u.fullCode, update_time: now })
            .where('code', '=', u.code)
            .where('is_local', '=', 0)
            .execute();
        }
      });
    }
    counts.inserted += inserts.length;
    counts.updated += updates.length;
    onProgress?.(counts.total, Math.max(total, counts.total));
  }
  const local = counts.updated > 0 ? await repathLocal(ctx, now) : await countLocal(ctx);
  return { ...counts, local, elapsedMs: Math.round(performance.now() - started) };
}

async function countLocal(ctx: AppContext): Promise<number> {
  const local = await ctx.db
    .selectFrom('sys_region')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_local', '=', 1)
    .where('is_delete', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(local.n);
}

/** Local regions keep their own names, but their name paths follow renamed bundled ancestors. */
async function repathLocal(ctx: AppContext, now: string): Promise<number> {
  const rows = await ctx.db
    .selectFrom('sys_region as r')
    .innerJoin('sys_region as p', 'p.id', 'r.pid')
    .select([
      'r.id',
      'r.name',
      'r.full_name',
      'r.is_delete',
      'p.id as parent_id',
      'p.full_name as parent_name',
    ])
    .where('r.is_local', '=', 1)
    .orderBy('r.level')
    .execute();
  const renamed = new Map<number, string>();
  let live = 0;
  await ctx.db.transaction().execute(async (trx) => {
    for (const r of rows) {
      if (r.is_delete === 0) live++;
      const parentName = renamed.get(Number(r.parent_id)) ?? r.parent_name;
      const fullName = `${parentName}${REGION_NAME_SEPARATOR}${r.name}`;
      if (fullName === r.full_name) continue;
      renamed.set(Number(r.id), fullName);
      await trx
        .updateTable('sys_region')
        .set({ full_name: fullName, update_time: now })
        .where('id', '=', r.id)
        .execute();
    }
  });
  return live;
}
