import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText } from './crud.ts';
import { idSchema, pageInputSchema, statusSchema } from './envelope.ts';

/** Codes of coded resources: letters, digits, `_` and `-`. */
const CODE_PATTERN = /^[0-9A-Za-z_-]+$/;

/**
 * The schemas of the small admin resources that are a code, a name, an order, a status and a remark
 * (positions, user groups, roles…): the row as the API returns it, add, partial update, and the page request
 * with its name/code/status filters. A resource extends or narrows them for what it has beyond that.
 */
export function codedSchemas(codePattern: RegExp = CODE_PATTERN) {
  const code = z.string().trim().min(1).max(64).regex(codePattern);
  const name = z.string().trim().min(1).max(64);
  const orderNo = z.coerce.number().int().min(0).max(1_000_000);
  const remark = z.string().max(256).nullable();
  return {
    row: z
      .object({
        id: z.number(),
        code: z.string(),
        name: z.string(),
        orderNo: z.number(),
        status: z.number(),
        remark: z.string().nullable(),
      })
      .extend(auditFieldsSchema.shape),
    add: z.object({
      code,
      name,
      orderNo: orderNo.default(100),
      status: statusSchema.default(1),
      remark: remark.optional(),
    }),
    /** Fields left out keep their value. */
    update: z.object({
      id: idSchema,
      code: code.optional(),
      name: name.optional(),
      orderNo: orderNo.optional(),
      status: statusSchema.optional(),
      remark: remark.optional(),
    }),
    /** `page` (and `list`, `export`): name contains, code contains, status equal. */
    page: pageInputSchema.extend({ name: filterText, code: filterText, status: filterNumber }),
  };
}
