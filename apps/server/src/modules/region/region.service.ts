import {
  REGION_MAX_LEVEL,
  REGION_NAME_SEPARATOR,
  REGION_PATH_SEPARATOR,
  type RegionNode,
  type RegionRoot,
  type RegionSearchHit,
  type RegionSyncCounts,
  type RegionSyncStatus,
} from '@shuzhi/contracts/region';
import { type SqlBool, sql } from 'kysely';
import { requireSuperAdmin } from '../../platform/access/platform-admin.ts';
import type { AppContext } from '../../platform/context.ts';
import type { CrudHooks } from '../../platform/crud/crud.ts';
import { escapeLikeText } from '../../platform/db/like.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { importRegions } from './region.import.ts';
import { forgetRegionSearch, searchNames, toHit } from './region.search.ts';
import { chinaDivisionSource, type RegionSource } from './region.source.ts';

function nodeQuery(ctx: AppContext) {
  return ctx.db
    .selectFrom('sys_region as r')
    .select([
      'r.id',
      'r.pid',
      'r.code',
      'r.name',
      'r.level',
      'r.is_local',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('sys_region as c')
              .select(sql`1`.as('one'))
              .whereRef('c.pid', '=', 'r.id')
              .where('c.is_delete', '=', 0),
          )
          .as('has_children'),
    ])
    .where('r.is_delete', '=', 0);
}

type NodeRow = {
  id: number;
  pid: number;
  code: string;
  name: string;
  level: number;
  is_local: number;
  has_children: unknown;
};
const toNode = (r: NodeRow): RegionNode => ({
  id: Number(r.id),
  pid: Number(r.pid),
  code: r.code,
  name: r.name,
  level: r.level,
  isLocal: r.is_local,
  isLeaf: !(r.has_children === true || Number(r.has_children) === 1),
});

/** Live children of a region (0: the provinces), in code order. */
export async function childrenOf(ctx: AppContext, pid: number): Promise<RegionNode[]> {
  const rows = await nodeQuery(ctx)
    .where('r.pid', '=', pid)
    .orderBy('r.order_no')
    .orderBy('r.code')
    .execute();
  return rows.map(toNode);
}

export async function nodeByCode(ctx: AppContext, code: string): Promise<RegionNode | null> {
  const row = await nodeQuery(ctx).where('r.code', '=', code).executeTakeFirst();
  return row ? toNode(row) : null;
}

/** A region and its ancestors, province first; empty when the code is unknown. */
export async function pathOf(ctx: AppContext, code: string): Promise<RegionNode[]> {
  const row = await ctx.db
    .selectFrom('sys_region')
    .select('full_code')
    .where('code', '=', code)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) return [];
  const codes = row.full_code.split(REGION_PATH_SEPARATOR);
  const rows = await nodeQuery(ctx).where('r.code', 'in', codes).execute();
  const byCode = new Map(rows.map((r) => [r.code, toNode(r)]));
  return codes.map((c) => byCode.get(c)).filter((n): n is RegionNode => n !== undefined);
}

export async function regionRoot(ctx: AppContext): Promise<RegionRoot> {
  const areaCode = ctx.config.profile.areaCode;
  const path = await pathOf(ctx, areaCode);
  return { areaCode, node: path.at(-1) ?? null, path };
}

/**
 * Search over every level: a code prefix (digits) through the unique code index, or a name containing the
 * keyword through the in-memory name index (region.search.ts), higher levels first, then by code. Each hit
 * carries the codes and names from the province down. `rootCode`: only that region and what lies under it.
 */
export async function searchRegions(
  ctx: AppContext,
  keyword: string,
  limit: number,
  rootCode?: string,
): Promise<RegionSearchHit[]> {
  const columns = ['id', 'code', 'name', 'level', 'is_local', 'full_code', 'full_name'] as const;
  let root: { id: number; full_code: string } | undefined;
  if (rootCode) {
    root = await ctx.db
      .selectFrom('sys_region')
      .select(['id', 'full_code'])
      .where('code', '=', rootCode)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    if (!root) return [];
  }
  if (/^\d+$/.test(keyword)) {
    let query = ctx.db
      .selectFrom('sys_region')
      .select(columns)
      .where('is_delete', '=', 0)
      .where('code', '>=', keyword)
      .where('code', '<', `${keyword}:`);
    if (root) {
      const prefix = `${escapeLikeText(root.full_code)}${REGION_PATH_SEPARATOR}%`;
      const rootId = Number(root.id);
      query = query.where((eb) =>
        eb.or([eb('id', '=', rootId), sql<SqlBool>`full_code like ${prefix} escape '\\'`]),
      );
    }
    return (await query.orderBy('code').limit(limit).execute()).map(toHit);
  }
  const ids = await searchNames(ctx, keyword, limit, root ? Number(root.id) : undefined);
  if (ids.length === 0) return [];
  const rows = await ctx.db.selectFrom('sys_region').select(columns).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toHit(row)] : [];
  });
}

// Sync: one at a time per process, its progress visible through syncStatus.
type SyncState = Omit<RegionSyncStatus, 'rows'>;
const states = new WeakMap<AppContext, SyncState>();
const idle = (): SyncState => ({
  running: false,
  done: 0,
  total: 0,
  startedAt: null,
  finishedAt: null,
  last: null,
  error: null,
});

export async function syncStatus(ctx: AppContext): Promise<RegionSyncStatus> {
  const state = states.get(ctx) ?? idle();
  const rows = await ctx.db
    .selectFrom('sys_region')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_delete', '=', 0)
    .executeTakeFirstOrThrow();
  return { ...state, rows: Number(rows.n) };
}

/** Runs an import with its progress in syncStatus; D9012 while another one runs in this process. */
export async function runSync(ctx: AppContext, source: RegionSource): Promise<RegionSyncCounts> {
  const current = states.get(ctx);
  if (current?.running) throw new AppError('D9012');
  const state: SyncState = {
    ...idle(),
    running: true,
    total: source.total ?? 0,
    startedAt: formatDateTime(),
    last: current?.last ?? null,
  };
  states.set(ctx, state);
  try {
    const counts = await importRegions(ctx, source, (done, total) => {
      state.done = done;
      state.total = total;
    });
    state.last = counts;
    await forgetRegionSearch(ctx);
    return counts;
  } catch (error) {
    state.error = error instanceof Error ? error.message : String(error);
    throw error;
  } finally {
    state.running = false;
    state.finishedAt = formatDateTime();
  }
}

/** The bundled data in full: what `POST /sync` imports. */
export const bundledSource = (): RegionSource => chinaDivisionSource();

/**
 * What the first start imports into an empty table. DECISION: the whole bundled data is ~665 000 rows
 * (620 573 of them villages) and takes several seconds to write, too long for a first `npm start` or for
 * every test file. The first start therefore imports levels 1–4 in full (~44 700 rows: every province,
 * city, county and township, so the cascader and search work nationwide down to streets) plus the villages
 * and communities of the profile's own province (Shanghai: ~6 000) — everything the district's own users
 * pick. The remaining villages arrive with 同步 (`POST /api/sysRegion/sync`), whose progress
 * `GET /api/sysRegion/syncStatus` shows.
 */
export const firstStartSource = (ctx: AppContext): RegionSource =>
  chinaDivisionSource({ villageProvinces: [ctx.config.profile.areaCode.slice(0, 2)] });

const syncSources = new WeakMap<AppContext, RegionSource>();

/** What `POST /sync` imports: the bundled data, or the source the app was built with (tests: a fixture). */
export const syncSource = (ctx: AppContext): RegionSource => syncSources.get(ctx) ?? bundledSource();

/**
 * At start. `source`: undefined — the bundled data (the first start imports `firstStartSource` into an empty
 * table, sync the whole); a source — it serves both (tests' fixtures); null — nothing at start (tests that
 * do not need regions), sync imports the bundled data. Never imports into a table that holds anything.
 */
export async function startRegions(
  ctx: AppContext,
  source?: RegionSource | null,
): Promise<RegionSyncCounts | null> {
  if (source) syncSources.set(ctx, source);
  if (source === null) return null;
  const any = await ctx.db.selectFrom('sys_region').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  return runSync(ctx, source ?? firstStartSource(ctx));
}

type ParentRow = { id: number; level: number; full_code: string; full_name: string };

/**
 * Local regions: added under a live parent, one level below it (at most 5, D9011), marked local, with the
 * code and name paths extended from the parent's. A rename rewrites the name paths of the region and of
 * everything under it. A region with live children cannot be deleted (D9010).
 */
export const regionHooks: CrudHooks<'sys_region', { pid: number }, unknown> = {
  async beforeAdd({ trx, user, values }) {
    requireSuperAdmin(user);
    const parent = (await trx
      .selectFrom('sys_region')
      .select(['id', 'level', 'full_code', 'full_name'])
      .where('id', '=', values.pid as number)
      .where('is_delete', '=', 0)
      .executeTakeFirst()) as ParentRow | undefined;
    if (!parent) throw new AppError('D1002');
    if (parent.level >= REGION_MAX_LEVEL) throw new AppError('D9011');
    values.level = parent.level + 1;
    values.is_local = 1;
    values.full_code = `${parent.full_code}${REGION_PATH_SEPARATOR}${values.code}`;
    values.full_name = `${parent.full_name}${REGION_NAME_SEPARATOR}${values.name}`;
  },
  async beforeUpdate({ trx, values, row }) {
    if (values.name === undefined || values.name === row.name) return;
    const parentName = row.full_name.slice(0, row.full_name.length - row.name.length);
    const fullName = `${parentName}${values.name}`;
    values.full_name = fullName;
    // Descendants: their full name starts with the old one.
    const prefix = `${escapeLikeText(row.full_code)}${REGION_PATH_SEPARATOR}%`;
    const cut = row.full_name.length + 1;
    await trx
      .updateTable('sys_region')
      .set({
        full_name: sql<string>`cast(${fullName} as varchar(768)) || substr(full_name, ${cut})`,
      })
      .where(sql<SqlBool>`full_code like ${prefix} escape '\\'`)
      .execute();
  },
  afterChange: ({ ctx }) => forgetRegionSearch(ctx),
  async beforeDelete({ trx, rows }) {
    const child = await trx
      .selectFrom('sys_region')
      .select('id')
      .where(
        'pid',
        'in',
        rows.map((r) => r.id),
      )
      .where('is_delete', '=', 0)
      .limit(1)
      .executeTakeFirst();
    if (child) throw new AppError('D9010');
  },
};
