import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { ConfigItem } from '@shuzhi/contracts/config';
import {
  type ConfigBatchUpdateInput,
  type SaveSysInfoInput,
  SYS_INFO_CODES,
  type SysInfo,
} from '@shuzhi/contracts/config-admin';
import { SYS_FLAG } from '@shuzhi/contracts/envelope';
import { CLIENT_CONFIG_CODES } from '@shuzhi/contracts/sys-config';
import type { Selectable, Transaction } from 'kysely';
import type { Database, SysConfigTable } from '../../db/schema.ts';
import { requireSuperAdmin } from '../../platform/access/platform-admin.ts';
import { type DiffEntry, recordDiff } from '../../platform/audit/audit.ts';
import { configValue, forgetAllConfigValues, forgetConfigValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { toField } from '../../platform/crud/case.ts';
import type { CrudHooks } from '../../platform/crud/crud.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';

const CLIENT_CODES = new Set<string>(CLIENT_CONFIG_CODES);

function toItem(
  row: Pick<
    SysConfigTable,
    'id' | 'code' | 'name' | 'value' | 'sys_flag' | 'group_code' | 'order_no' | 'remark'
  >,
): ConfigItem {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    value: row.value,
    sysFlag: row.sys_flag,
    groupCode: row.group_code,
    orderNo: row.order_no,
    remark: row.remark,
  };
}

const columns = ['id', 'code', 'name', 'value', 'sys_flag', 'group_code', 'order_no', 'remark'] as const;

/**
 * All config items for the super admin (the parameters are platform-wide, docs/tenancy.md); everyone else
 * signed in, tenant admins included, gets only the items the shell needs (CLIENT_CONFIG_CODES), never
 * secrets such as the default password nor the platform's security settings.
 */
export async function listConfigs(ctx: AppContext, user: AuthUser): Promise<ConfigItem[]> {
  const rows = await ctx.db
    .selectFrom('sys_config')
    .select(columns)
    .where('is_delete', '=', 0)
    .orderBy('group_code')
    .orderBy('order_no')
    .orderBy('id')
    .execute();
  const full = user.accountType === ACCOUNT_TYPE.superAdmin;
  return rows.filter((row) => full || CLIENT_CODES.has(row.code)).map(toItem);
}

export async function configGroups(ctx: AppContext, user: AuthUser): Promise<string[]> {
  requireSuperAdmin(user);
  const rows = await ctx.db
    .selectFrom('sys_config')
    .select('group_code')
    .distinct()
    .where('is_delete', '=', 0)
    .where('group_code', 'is not', null)
    .orderBy('group_code')
    .execute();
  return rows.map((r) => r.group_code as string);
}

/**
 * Rules of the config table for the CRUD factory: only the super admin adds (reads and the other writes go
 * through the super-admin scope); built-in rows (sysFlag 1) cannot be deleted (D9001) and keep their code
 * and flag (D9002), since the platform reads them by code; every write drops the cached values in every
 * process, so a change applies at once without a restart.
 */
export const configHooks: CrudHooks<'sys_config', unknown, unknown> = {
  beforeAdd: ({ user }) => requireSuperAdmin(user),
  beforeUpdate({ row, values }) {
    if (row.sys_flag !== SYS_FLAG.yes) return;
    const codeChanged = values.code !== undefined && values.code !== row.code;
    const flagChanged = values.sys_flag !== undefined && values.sys_flag !== SYS_FLAG.yes;
    if (codeChanged || flagChanged) throw new AppError('D9002');
  },
  beforeDelete({ rows }) {
    if (rows.some((row) => row.sys_flag === SYS_FLAG.yes)) throw new AppError('D9001');
  },
  afterChange: ({ ctx }) => forgetAllConfigValues(ctx),
};

const audit = (user: AuthUser) => ({
  update_time: formatDateTime(),
  update_user_id: user.userId,
  update_user_name: user.realName,
});

type ConfigRecord = Selectable<SysConfigTable>;
type ConfigDiff = Pick<DiffEntry, 'recordId' | 'operation' | 'before' | 'after'>;

/** A row as the API names its fields, the shape the diff log keeps (as the CRUD factory writes it). */
const fieldsOf = (row: ConfigRecord): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).map(([column, value]) => [toField(column), value]));

/**
 * Sets the value of existing rows inside `trx`; a row whose value is already the one given is left alone
 * (no stamp, no diff). Returns the field diffs of the rows changed, for `recordDiff` once committed.
 */
async function setValues(
  trx: Transaction<Database>,
  user: AuthUser,
  rows: readonly ConfigRecord[],
  values: ReadonlyMap<string, string | null>,
): Promise<ConfigDiff[]> {
  const diffs: ConfigDiff[] = [];
  for (const row of rows) {
    const value = values.get(row.code);
    if (value === undefined || value === row.value) continue;
    const stamped = { value, ...audit(user) };
    await trx.updateTable('sys_config').set(stamped).where('id', '=', row.id).execute();
    diffs.push({
      recordId: row.id,
      operation: 'update',
      before: fieldsOf(row),
      after: fieldsOf({ ...row, ...stamped }),
    });
  }
  return diffs;
}

function logDiffs(ctx: AppContext, user: AuthUser, traceId: string | null, diffs: readonly ConfigDiff[]) {
  for (const diff of diffs) recordDiff(ctx, { ...diff, table: 'sys_config', user, traceId });
}

/**
 * Sets values by code, all or nothing: an unknown code refuses the whole batch (D1002); a code given twice
 * takes its last value. Each changed row leaves a field diff (sys_config is a sensitive table).
 */
export async function batchUpdateConfigs(
  ctx: AppContext,
  user: AuthUser,
  input: ConfigBatchUpdateInput,
  traceId: string | null = null,
): Promise<null> {
  requireSuperAdmin(user);
  const values = new Map(input.map((entry) => [entry.code, entry.value] as const));
  const codes = [...values.keys()];
  const diffs = await ctx.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('sys_config')
      .selectAll()
      .where('code', 'in', codes)
      .where('is_delete', '=', 0)
      .execute();
    if (rows.length !== codes.length) throw new AppError('D1002');
    return setValues(trx, user, rows, values);
  });
  logDiffs(ctx, user, traceId, diffs);
  await forgetConfigValue(ctx, ...codes);
  return null;
}

/** The system-info config (login page, footer); empty values mean "use the profile's". */
export async function sysInfo(ctx: AppContext): Promise<SysInfo> {
  const [webTitle, webLogo, webCopyright, webIcp] = await Promise.all([
    configValue(ctx, SYS_INFO_CODES.webTitle),
    configValue(ctx, SYS_INFO_CODES.webLogo),
    configValue(ctx, SYS_INFO_CODES.webCopyright),
    configValue(ctx, SYS_INFO_CODES.webIcp),
  ]);
  return { webTitle, webLogo, webCopyright, webIcp };
}

const SYS_INFO_NAMES: Record<keyof SysInfo, string> = {
  webTitle: '系统标题',
  webLogo: '系统图标',
  webCopyright: '版权信息',
  webIcp: 'ICP 备案号',
};

/**
 * Saves the fields given; a row missing from an old database is added back as built-in. Changed and added
 * rows leave field diffs like the CRUD factory's.
 */
export async function saveSysInfo(
  ctx: AppContext,
  user: AuthUser,
  input: SaveSysInfoInput,
  traceId: string | null = null,
): Promise<SysInfo> {
  requireSuperAdmin(user);
  const entries = (Object.keys(SYS_INFO_CODES) as (keyof SysInfo)[]).flatMap((field) => {
    const value = input[field];
    return value === undefined ? [] : [{ field, code: SYS_INFO_CODES[field], value }];
  });
  const values = new Map(entries.map((e) => [e.code, e.value] as const));
  const diffs = await ctx.db.transaction().execute(async (trx) => {
    const rows =
      entries.length === 0
        ? []
        : await trx
            .selectFrom('sys_config')
            .selectAll()
            .where(
              'code',
              'in',
              entries.map((e) => e.code),
            )
            .where('is_delete', '=', 0)
            .execute();
    const changed = await setValues(trx, user, rows, values);
    const present = new Set(rows.map((row) => row.code));
    for (const { field, code, value } of entries) {
      if (present.has(code)) continue;
      const row: ConfigRecord = {
        id: ctx.newId(),
        create_time: formatDateTime(),
        update_time: null,
        create_user_id: user.userId,
        create_user_name: user.realName,
        update_user_id: null,
        update_user_name: null,
        is_delete: 0,
        code,
        name: SYS_INFO_NAMES[field],
        value,
        sys_flag: SYS_FLAG.yes,
        group_code: 'Web',
        order_no: 100,
        remark: null,
      };
      await trx.insertInto('sys_config').values(row).execute();
      changed.push({ recordId: row.id, operation: 'add', before: null, after: fieldsOf(row) });
    }
    return changed;
  });
  logDiffs(ctx, user, traceId, diffs);
  await forgetConfigValue(ctx, ...entries.map((e) => e.code));
  return sysInfo(ctx);
}
