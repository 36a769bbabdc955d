import type { ConfigItem } from '@shuzhi/contracts/config';
import {
  type ConfigBatchUpdateInput,
  type SaveSysInfoInput,
  SYS_INFO_CODES,
  type SysInfo,
} from '@shuzhi/contracts/config-admin';
import { SYS_FLAG } from '@shuzhi/contracts/envelope';
import { CLIENT_CONFIG_CODES } from '@shuzhi/contracts/sys-config';
import type { SysConfigTable } from '../../db/schema.ts';
import { configValue, forgetAllConfigValues, forgetConfigValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
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
 * All config items for holders of `sysConfig:list`; everyone else signed in gets only the items the shell
 * needs (CLIENT_CONFIG_CODES), never secrets such as the default password.
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
  const full = user.permissions.has('sysConfig:list');
  return rows.filter((row) => full || CLIENT_CODES.has(row.code)).map(toItem);
}

export async function configGroups(ctx: AppContext): Promise<string[]> {
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
 * Rules of the config table for the CRUD factory: built-in rows (sysFlag 1) cannot be deleted (D9001) and
 * keep their code and flag (D9002), since the platform reads them by code; every write drops the cached
 * values in every process, so a change applies at once without a restart.
 */
export const configHooks: CrudHooks<'sys_config', unknown, unknown> = {
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

/** Sets values by code, all or nothing: an unknown code refuses the whole batch (D1002). */
export async function batchUpdateConfigs(
  ctx: AppContext,
  user: AuthUser,
  input: ConfigBatchUpdateInput,
): Promise<null> {
  const codes = [...new Set(input.map((entry) => entry.code))];
  await ctx.db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('sys_config')
      .select('code')
      .where('code', 'in', codes)
      .where('is_delete', '=', 0)
      .execute();
    if (found.length !== codes.length) throw new AppError('D1002');
    for (const { code, value } of input) {
      await trx
        .updateTable('sys_config')
        .set({ value, ...audit(user) })
        .where('code', '=', code)
        .where('is_delete', '=', 0)
        .execute();
    }
  });
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

/** Saves the fields given; a row missing from an old database is added back as built-in. */
export async function saveSysInfo(
  ctx: AppContext,
  user: AuthUser,
  input: SaveSysInfoInput,
): Promise<SysInfo> {
  const entries = (Object.keys(SYS_INFO_CODES) as (keyof SysInfo)[]).flatMap((field) => {
    const value = input[field];
    return value === undefined ? [] : [{ field, code: SYS_INFO_CODES[field], value }];
  });
  await ctx.db.transaction().execute(async (trx) => {
    for (const { field, code, value } of entries) {
      const result = await trx
        .updateTable('sys_config')
        .set({ value, ...audit(user) })
        .where('code', '=', code)
        .where('is_delete', '=', 0)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) continue;
      await trx
        .insertInto('sys_config')
        .values({
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
        })
        .execute();
    }
  });
  await forgetConfigValue(ctx, ...entries.map((e) => e.code));
  return sysInfo(ctx);
}
