import type { Kysely, Transaction } from 'kysely';
import type { Database, SysOrgTable, SysUserTable } from '../../db/schema.ts';

/**
 * The area columns a user copies from their org chain (district, street, community, grid, sub-grid: name and
 * code). One derivation serves user add/edit/import, the seed, and an org move or rename (which must carry the
 * users below along); it lives here because the org and user modules and the seed all need it.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** Each level: the user's name and code columns, and which org of the chain (root first) fills them. */
export const AREA_LEVELS = [
  { name: 'area', code: 'area_code', type: 'district', nth: 0 },
  { name: 'street', code: 'street_code', type: 'street', nth: 0 },
  { name: 'community', code: 'community_code', type: 'community', nth: 0 },
  { name: 'wangge', code: 'wangge_code', type: 'grid', nth: 0 },
  { name: 'weiwangge', code: 'weiwangge_code', type: 'grid', nth: 1 },
] as const;

type AreaColumn = (typeof AREA_LEVELS)[number]['name' | 'code'];
export type AreaFields = Pick<SysUserTable, AreaColumn>;
export const AREA_COLUMNS = AREA_LEVELS.flatMap((l) => [l.name, l.code]) as AreaColumn[];

/** The org columns the derivation reads: a change to any of them (or to the path) may change users' fields. */
export type OrgChainRow = Pick<SysOrgTable, 'code' | 'name' | 'type' | 'full_ids' | 'region_code'> & {
  id: number;
};
export const ORG_AREA_SOURCE = ['code', 'name', 'type', 'full_ids', 'region_code'] as const;

const EMPTY: AreaFields = Object.fromEntries(AREA_COLUMNS.map((c) => [c, null])) as AreaFields;
const IN_CHUNK = 500;

/** The area fields of the org chain `chain` (root first). A level's code is the org's division code, else its own. */
export function areaFieldsOfChain(chain: OrgChainRow[]): AreaFields {
  const out: AreaFields = { ...EMPTY };
  for (const level of AREA_LEVELS) {
    const org = chain.filter((o) => o.type === level.type)[level.nth];
    if (!org) continue;
    out[level.name] = org.name;
    out[level.code] = org.region_code ?? org.code;
  }
  return out;
}

/**
 * The area fields of each org in `orgIds` (missing orgs: all null), read inside `db` (a transaction sees its own
 * writes). `pending` rows stand in for their stored versions: an org about to be written with a new name,
 * type, code or path.
 */
export async function orgAreaFields(
  db: Db,
  orgIds: readonly number[],
  pending: readonly OrgChainRow[] = [],
): Promise<Map<number, AreaFields>> {
  const byId = new Map<number, OrgChainRow>();
  const load = async (ids: number[]) => {
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      const rows = await db
        .selectFrom('sys_org')
        .select(['id', 'code', 'name', 'type', 'full_ids', 'region_code'])
        .where('id', 'in', ids.slice(i, i + IN_CHUNK))
        .execute();
      for (const row of rows) byId.set(row.id, row);
    }
    for (const row of pending) byId.set(row.id, row);
  };
  const wanted = [...new Set(orgIds)];
  await load(wanted.filter((id) => !pending.some((p) => p.id === id)));
  const pathIds = new Set<number>();
  for (const id of wanted) {
    for (const part of (byId.get(id)?.full_ids ?? '').split(',')) {
      const n = Number(part);
      if (part !== '' && !byId.has(n)) pathIds.add(n);
    }
  }
  if (pathIds.size > 0) await load([...pathIds]);
  const out = new Map<number, AreaFields>();
  for (const id of wanted) {
    const chain = (byId.get(id)?.full_ids ?? '')
      .split(',')
      .map((part) => byId.get(Number(part)))
      .filter((o) => o !== undefined);
    out.set(id, areaFieldsOfChain(chain));
  }
  return out;
}

const blank = (value: string | null | undefined) => value == null || value === '';

/**
 * The area fields a user keeps, level by level: a level left blank, or still holding what `before` (the chain
 * the user followed until now; null for a new user) gave, follows `after`; any other value was typed by an
 * admin on purpose (the user form and the import let them) and stays as it is.
 */
export function followOrgArea(current: AreaFields, before: AreaFields | null, after: AreaFields): AreaFields {
  const out: AreaFields = { ...current };
  for (const { name, code } of AREA_LEVELS) {
    const unset = blank(current[name]) && blank(current[code]);
    const derived = before !== null && current[name] === before[name] && current[code] === before[code];
    if (unset || derived) {
      out[name] = after[name];
      out[code] = after[code];
    }
  }
  return out;
}

/** The area columns of a user row or of a write's values (absent columns: null). */
export function areaFieldsOf(row: Partial<Record<AreaColumn, string | null>>): AreaFields {
  return Object.fromEntries(AREA_COLUMNS.map((c) => [c, row[c] ?? null])) as AreaFields;
}

/**
 * After orgs changed (moved, renamed, retyped, recoded): the live users of `orgIds` whose levels still follow the
 * chain get the new values, as `followOrgArea` decides. One UPDATE per org and changed level, not per user.
 */
export async function followOrgChange(
  db: Db,
  tenantId: number,
  before: Map<number, AreaFields>,
  after: Map<number, AreaFields>,
): Promise<void> {
  for (const [orgId, was] of before) {
    const now = after.get(orgId) ?? EMPTY;
    for (const { name, code } of AREA_LEVELS) {
      if (was[name] === now[name] && was[code] === now[code]) continue;
      await db
        .updateTable('sys_user')
        .set({ [name]: now[name], [code]: now[code] })
        .where('tenant_id', '=', tenantId)
        .where('org_id', '=', orgId)
        .where('is_delete', '=', 0)
        .where((eb) => {
          const isBlank = (column: AreaColumn) => eb.or([eb(column, 'is', null), eb(column, '=', '')]);
          const isValue = (column: AreaColumn, value: string | null) =>
            value === null ? eb(column, 'is', null) : eb(column, '=', value);
          return eb.or([
            eb.and([isBlank(name), isBlank(code)]),
            eb.and([isValue(name, was[name]), isValue(code, was[code])]),
          ]);
        })
        .execute();
    }
  }
}
