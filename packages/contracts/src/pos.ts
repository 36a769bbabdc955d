import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText } from './crud.ts';
import { idSchema, pageInputSchema, statusSchema } from './envelope.ts';

/** Positions (`/api/sysPos/…`): a tenant's job titles that users hold (`sys_user.pos_id`, extra orgs too). */
export const posRowSchema = z
  .object({
    id: z.number(),
    code: z.string(),
    name: z.string(),
    orderNo: z.number(),
    status: z.number(),
    remark: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type PosRow = z.infer<typeof posRowSchema>;

const fields = {
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[0-9A-Za-z_-]+$/),
  name: z.string().trim().min(1).max(64),
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  remark: z.string().max(256).nullable(),
};

export const posAddInputSchema = z.object({
  code: fields.code,
  name: fields.name,
  orderNo: fields.orderNo.default(100),
  status: statusSchema.default(1),
  remark: fields.remark.optional(),
});
export type PosAddInput = z.input<typeof posAddInputSchema>;

/** Fields left out keep their value. */
export const posUpdateInputSchema = z.object({
  id: idSchema,
  code: fields.code.optional(),
  name: fields.name.optional(),
  orderNo: fields.orderNo.optional(),
  status: statusSchema.optional(),
  remark: fields.remark.optional(),
});
export type PosUpdateInput = z.input<typeof posUpdateInputSchema>;

/** `sysPos/page` (and `list`, `export`): name contains, code contains, status equal. */
export const posPageInputSchema = pageInputSchema.extend({
  name: filterText,
  code: filterText,
  status: filterNumber,
});
export type PosPageInput = z.input<typeof posPageInputSchema>;
