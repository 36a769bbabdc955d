import type { ConfigItem } from '@shuzhi/contracts/config';
import { CLIENT_CONFIG_CODES } from '@shuzhi/contracts/sys-config';
import type { SysConfigTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
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

export async function configDetail(ctx: AppContext, id: number): Promise<ConfigItem> {
  const row = await ctx.db
    .selectFrom('sys_config')
    .select(columns)
    .where('id', '=', id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return toItem(row);
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
