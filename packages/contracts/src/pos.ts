import type { z } from 'zod';
import { codedSchemas } from './coded.ts';

/** Positions (`/api/sysPos/…`): a tenant's job titles that users hold (`sys_user.pos_id`, extra orgs too). */
const pos = codedSchemas();

export const posRowSchema = pos.row;
export type PosRow = z.infer<typeof posRowSchema>;

export const posAddInputSchema = pos.add;
export type PosAddInput = z.input<typeof posAddInputSchema>;

/** Fields left out keep their value. */
export const posUpdateInputSchema = pos.update;
export type PosUpdateInput = z.input<typeof posUpdateInputSchema>;

/** `sysPos/page` (and `list`, `export`): name contains, code contains, status equal. */
export const posPageInputSchema = pos.page;
export type PosPageInput = z.input<typeof posPageInputSchema>;
