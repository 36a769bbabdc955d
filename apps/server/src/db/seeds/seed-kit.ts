import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import type { Database } from '../schema.ts';
import type { SeedJob } from './data/jobs.ts';
import type {
  SeedConfig,
  SeedDictType,
  SeedForm,
  SeedFormCategory,
  SeedMenu,
  SeedOrg,
  SeedPos,
  SeedRole,
  SeedUser,
  SeedUserGroup,
} from './types.ts';

/** What the seed inserts where it is missing (`DEMO_DATA` in seed.ts is the demo district). */
export type SeedData = {
  orgs: SeedOrg[];
  positions: SeedPos[];
  roles: SeedRole[];
  users: SeedUser[];
  userGroups: SeedUserGroup[];
  menus: SeedMenu[];
  dicts: SeedDictType[];
  configs: SeedConfig[];
  jobs: SeedJob[];
  /** Categories of report forms (needs migration 0009; pass `[]` for an older database). */
  formCategories: SeedFormCategory[];
  /** Published demo forms with records (needs migration 0009; pass `[]` for an older database). */
  forms: SeedForm[];
};

/** The default tenant keeps the id Admin.NET-family clients know. */
export const DEFAULT_TENANT_ID = 1_300_000_000_001;
export const SEED_USER = { id: 0, name: 'seed' };
const CHUNK = 200;

/** Rows inserted, by table. */
export type SeedReport = Record<string, number>;

export type Trx = Transaction<Database> | Kysely<Database>;
/** The dialect is needed only to publish demo forms (their data tables' column types). */
export type SeedContext = Pick<AppContext, 'db' | 'newId' | 'passwordHashing'> &
  Partial<Pick<AppContext, 'dialect'>>;

/** One seed run: its transaction, the data, the report it fills, and the audit columns of a new row. */
export type SeedRun = {
  trx: Trx;
  ctx: SeedContext;
  data: SeedData;
  report: SeedReport;
  /** The run's one timestamp. */
  now: string;
  /** A new id and the audit columns of a row the seed creates. */
  base: () => { id: number } & Record<string, unknown>;
};

export function startRun(trx: Trx, ctx: SeedContext, data: SeedData): SeedRun {
  const now = formatDateTime();
  const base = () => ({
    id: ctx.newId(),
    create_time: now,
    update_time: null,
    create_user_id: SEED_USER.id,
    create_user_name: SEED_USER.name,
    update_user_id: null,
    update_user_name: null,
    is_delete: 0,
  });
  return { trx, ctx, data, report: {}, now, base };
}

/** Inserts `rows` in chunks and counts them in the report (an empty list inserts nothing). */
export async function insertMany<T extends keyof Database & string>(
  trx: Trx,
  table: T,
  rows: Record<string, unknown>[],
  report: SeedReport,
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
  }
  report[table] = (report[table] ?? 0) + rows.length;
}
