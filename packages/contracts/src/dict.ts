import { z } from 'zod';

export const dictDataItemSchema = z.object({
  id: z.number(),
  dictTypeId: z.number(),
  label: z.string(),
  value: z.string(),
  tagType: z.string().nullable(),
  styleSetting: z.string().nullable(),
  classSetting: z.string().nullable(),
  extData: z.string().nullable(),
  orderNo: z.number(),
  status: z.number(),
  remark: z.string().nullable(),
});
export type DictDataItem = z.infer<typeof dictDataItemSchema>;

/** `GET /api/sysDictType/allDictList`: enabled items of every enabled type, keyed by type code. */
export const allDictListSchema = z.record(z.string(), z.array(dictDataItemSchema));
export type AllDictList = z.infer<typeof allDictListSchema>;

export const dictDataListQuerySchema = z.object({ Code: z.string().trim().min(1).max(64) });

/**
 * `GET /api/sysDictType/choices`: code and name of every enabled dictionary type, for whoever picks a
 * dictionary (the form designer's choice fields); the dictionary screen itself is the super admin's.
 */
export const dictTypeChoiceSchema = z.object({ code: z.string(), name: z.string() });
export type DictTypeChoice = z.infer<typeof dictTypeChoiceSchema>;
