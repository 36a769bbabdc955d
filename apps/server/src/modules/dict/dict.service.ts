import { createHash } from 'node:crypto';
import type { AllDictList, DictDataItem, DictTypeChoice } from '@shuzhi/contracts/dict';
import { dictItemLabel } from '@shuzhi/contracts/dict-labels';
import { STATUS, SYS_FLAG } from '@shuzhi/contracts/envelope';
import { LOCALES, type Locale } from '@shuzhi/contracts/i18n';
import { requireSuperAdmin } from '../../platform/access/platform-admin.ts';
import type { AppContext } from '../../platform/context.ts';
import type { CrudHooks } from '../../platform/crud/crud.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { SerializedResult } from '../../platform/http/envelope.ts';

/**
 * `allDictList` (every enabled item of every enabled type) is kept in the per-process tier, serialised, once
 * per UI language, with a version stamp: a hash of that JSON, so it is the same in every process and after a
 * restart, and moves exactly when what clients of that language cache changes. Built-in items are labelled
 * in the request's language while their stored label is the seeded one (`dictItemLabel`, contracts).
 *
 * Invalidation contract: every write to `sys_dict_type` or `sys_dict_data` calls `forgetDicts` after it has
 * committed (the CRUD hooks below do); it applies here at once and in every other process via pub/sub.
 */
const TTL_SECONDS = 300;
const keyOf = (locale: Locale) => `dict:all:${locale}`;

type DictCache = { value: AllDictList; result: SerializedResult; version: number };

export async function forgetDicts(ctx: AppContext): Promise<void> {
  await ctx.cache.local.invalidate(...LOCALES.map(keyOf));
}

/** Enabled items of enabled dictionary types. */
async function enabledItems(ctx: AppContext, locale: Locale) {
  const rows = await ctx.db
    .selectFrom('sys_dict_data as d')
    .innerJoin('sys_dict_type as t', 't.id', 'd.dict_type_id')
    .select([
      't.code as type_code',
      'd.id',
      'd.dict_type_id',
      'd.label',
      'd.value',
      'd.tag_type',
      'd.style_setting',
      'd.class_setting',
      'd.ext_data',
      'd.order_no',
      'd.status',
      'd.remark',
    ])
    .where('t.is_delete', '=', 0)
    .where('t.status', '=', STATUS.enabled)
    .where('d.is_delete', '=', 0)
    .where('d.status', '=', STATUS.enabled)
    .orderBy('t.code')
    .orderBy('d.order_no')
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({
    typeCode: r.type_code,
    item: {
      id: r.id,
      dictTypeId: r.dict_type_id,
      label: dictItemLabel(r.type_code, r.value, r.label, locale),
      value: r.value,
      tagType: r.tag_type,
      styleSetting: r.style_setting,
      classSetting: r.class_setting,
      extData: r.ext_data,
      orderNo: r.order_no,
      status: r.status,
      remark: r.remark,
    } satisfies DictDataItem,
  }));
}

/** 48 bits of the content's SHA-256: a JSON-safe number. */
function versionOf(json: string): number {
  return createHash('sha256').update(json).digest().readUIntBE(0, 6);
}

async function loadDicts(ctx: AppContext, locale: Locale): Promise<DictCache> {
  const since = ctx.cache.local.mark();
  // Type codes are an administrator's input: `constructor` is a code like any other here.
  const value: AllDictList = Object.create(null);
  for (const { typeCode, item } of await enabledItems(ctx, locale)) {
    const list = value[typeCode] ?? [];
    list.push(item);
    value[typeCode] = list;
  }
  const json = JSON.stringify(value);
  const entry = { value, result: new SerializedResult(json), version: versionOf(json) };
  ctx.cache.local.set(keyOf(locale), entry, TTL_SECONDS, since);
  return entry;
}

function dicts(ctx: AppContext, locale: Locale): DictCache | Promise<DictCache> {
  return ctx.cache.local.get<DictCache>(keyOf(locale)) ?? loadDicts(ctx, locale);
}

/** `allDictList` in one language, already serialised as the route sends it; synchronous when cached. */
export function allDictListResult(
  ctx: AppContext,
  locale: Locale,
): SerializedResult | Promise<SerializedResult> {
  const hit = ctx.cache.local.get<DictCache>(keyOf(locale));
  return hit ? hit.result : loadDicts(ctx, locale).then((entry) => entry.result);
}

export async function dictDataList(ctx: AppContext, code: string, locale: Locale): Promise<DictDataItem[]> {
  return (await dicts(ctx, locale)).value[code] ?? [];
}

/** The stamp of `allDictList` in one language: each language has its own, so a client keys it by language. */
export async function dictVersion(ctx: AppContext, locale: Locale): Promise<number> {
  return (await dicts(ctx, locale)).version;
}

/** Enabled dictionary types by order, for pickers: any signed-in user reads them, as they read the items. */
export async function dictTypeChoices(ctx: AppContext): Promise<DictTypeChoice[]> {
  return ctx.db
    .selectFrom('sys_dict_type')
    .select(['code', 'name'])
    .where('is_delete', '=', 0)
    .where('status', '=', STATUS.enabled)
    .orderBy('order_no')
    .orderBy('code')
    .execute();
}

/**
 * Dictionary types (platform-wide like the items: only the super admin adds; reads and the other writes go
 * through the super-admin scope): built-in ones (sysFlag 1) cannot be deleted (D9003) and keep their code
 * (D9002), since the platform and the web app read them by code. Deleting a type deletes its items with it,
 * in the same transaction (an item without its type could never be seen or edited again).
 */
export const dictTypeHooks: CrudHooks<'sys_dict_type', unknown, unknown> = {
  beforeAdd: ({ user }) => requireSuperAdmin(user),
  beforeUpdate({ row, values }) {
    if (row.sys_flag === SYS_FLAG.yes && values.code !== undefined && values.code !== row.code) {
      throw new AppError('D9002');
    }
  },
  async beforeDelete({ trx, user, rows }) {
    if (rows.some((row) => row.sys_flag === SYS_FLAG.yes)) throw new AppError('D9003');
    await trx
      .updateTable('sys_dict_data')
      .set({
        is_delete: 1,
        update_time: formatDateTime(),
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
      .where(
        'dict_type_id',
        'in',
        rows.map((row) => row.id),
      )
      .where('is_delete', '=', 0)
      .execute();
  },
  afterChange: ({ ctx }) => forgetDicts(ctx),
};

/** Dictionary items: their type must exist (D1002); the value is unique within the type (factory, D1006). */
export const dictDataHooks: CrudHooks<'sys_dict_data', unknown, unknown> = {
  async beforeAdd({ trx, user, values }) {
    requireSuperAdmin(user);
    await requireType(trx, values.dict_type_id);
  },
  async beforeUpdate({ trx, values, row }) {
    if (values.dict_type_id !== undefined && values.dict_type_id !== row.dict_type_id) {
      await requireType(trx, values.dict_type_id);
    }
  },
  afterChange: ({ ctx }) => forgetDicts(ctx),
};

async function requireType(
  trx: Parameters<NonNullable<typeof dictDataHooks.beforeAdd>>[0]['trx'],
  id?: number,
) {
  const type =
    id === undefined
      ? undefined
      : await trx
          .selectFrom('sys_dict_type')
          .select('id')
          .where('id', '=', id)
          .where('is_delete', '=', 0)
          .executeTakeFirst();
  if (!type) throw new AppError('D1002');
}
