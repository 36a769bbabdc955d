import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText } from './crud.ts';
import { dictDataItemSchema } from './dict.ts';
import { idSchema, pageInputSchema, statusSchema } from './envelope.ts';

/** Administration of dictionaries (`/api/sysDictType/…`, `/api/sysDictData/…`). */

export const dictTypeRowSchema = z
  .object({
    id: z.number(),
    code: z.string(),
    name: z.string(),
    orderNo: z.number(),
    status: z.number(),
    /** 1 built-in (cannot be deleted, code fixed), 2 added by an admin. */
    sysFlag: z.number(),
    remark: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type DictTypeRow = z.infer<typeof dictTypeRowSchema>;

export const dictDataRowSchema = dictDataItemSchema.extend(auditFieldsSchema.shape);
export type DictDataRow = z.infer<typeof dictDataRowSchema>;

const typeFields = {
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z][\w-]*$/),
  name: z.string().trim().min(1).max(128),
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  status: statusSchema,
  remark: z.string().max(256).nullable(),
};

export const dictTypeAddInputSchema = z.object({
  code: typeFields.code,
  name: typeFields.name,
  orderNo: typeFields.orderNo.default(100),
  status: typeFields.status.default(1),
  remark: typeFields.remark.optional(),
});

/** Fields left out keep their value. */
export const dictTypeUpdateInputSchema = z.object({
  id: idSchema,
  code: typeFields.code.optional(),
  name: typeFields.name.optional(),
  orderNo: typeFields.orderNo.optional(),
  status: typeFields.status.optional(),
  remark: typeFields.remark.optional(),
});

/** `sysDictType/page`: name and code contain, status equals. */
export const dictTypePageInputSchema = pageInputSchema.extend({
  name: filterText,
  code: filterText,
  status: filterNumber,
});
export type DictTypePageInput = z.input<typeof dictTypePageInputSchema>;

const dataFields = {
  dictTypeId: idSchema,
  label: z.string().trim().min(1).max(128),
  value: z.string().trim().min(1).max(128),
  tagType: z.string().trim().max(32).nullable(),
  styleSetting: z.string().max(512).nullable(),
  classSetting: z.string().max(512).nullable(),
  extData: z.string().max(10_000).nullable(),
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  status: statusSchema,
  remark: z.string().max(256).nullable(),
};

export const dictDataAddInputSchema = z.object({
  dictTypeId: dataFields.dictTypeId,
  label: dataFields.label,
  value: dataFields.value,
  tagType: dataFields.tagType.optional(),
  styleSetting: dataFields.styleSetting.optional(),
  classSetting: dataFields.classSetting.optional(),
  extData: dataFields.extData.optional(),
  orderNo: dataFields.orderNo.default(100),
  status: dataFields.status.default(1),
  remark: dataFields.remark.optional(),
});

/** Fields left out keep their value. */
export const dictDataUpdateInputSchema = z.object({
  id: idSchema,
  dictTypeId: dataFields.dictTypeId.optional(),
  label: dataFields.label.optional(),
  value: dataFields.value.optional(),
  tagType: dataFields.tagType.optional(),
  styleSetting: dataFields.styleSetting.optional(),
  classSetting: dataFields.classSetting.optional(),
  extData: dataFields.extData.optional(),
  orderNo: dataFields.orderNo.optional(),
  status: dataFields.status.optional(),
  remark: dataFields.remark.optional(),
});

/** `sysDictData/page` and `list`: the items of one type (dictTypeId), label and value contain, status equals. */
export const dictDataPageInputSchema = pageInputSchema.extend({
  dictTypeId: filterNumber,
  label: filterText,
  value: filterText,
  status: filterNumber,
});
export type DictDataPageInput = z.input<typeof dictDataPageInputSchema>;

/**
 * `GET /api/sysDictType/version`: a stamp of what `allDictList` serves; it changes whenever an admin's edit
 * changes that content, so a client refetches its dictionary cache only when the stamp moved.
 */
export const dictVersionSchema = z.number();
