import type { AllDictList, DictDataItem } from '@shuzhi/contracts/dict';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { AppContext } from '../../platform/context.ts';

/** Enabled items of enabled dictionary types, optionally of one type code. */
async function enabledItems(ctx: AppContext, code?: string) {
  let query = ctx.db
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
    .where('d.status', '=', STATUS.enabled);
  if (code !== undefined) query = query.where('t.code', '=', code);
  const rows = await query.orderBy('d.order_no').orderBy('d.id').execute();
  return rows.map((r) => ({
    typeCode: r.type_code,
    item: {
      id: r.id,
      dictTypeId: r.dict_type_id,
      label: r.label,
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

export async function allDictList(ctx: AppContext): Promise<AllDictList> {
  const result: AllDictList = {};
  for (const { typeCode, item } of await enabledItems(ctx)) {
    const list = result[typeCode] ?? [];
    list.push(item);
    result[typeCode] = list;
  }
  return result;
}

export async function dictDataList(ctx: AppContext, code: string): Promise<DictDataItem[]> {
  return (await enabledItems(ctx, code)).map((r) => r.item);
}
