import type { z } from 'zod';
import { codedSchemas } from './coded.ts';

/** Positions (`/api/sysPos/…`): a tenant's job titles that users hold (`sys_user.pos_id`, extra orgs too). */
const pos = codedSchemas();

export const posRowSchema = pos.row;
export type PosRow = z.infer<typeof posRowSchema>;

export const posAddInputSchema = pos.add;

/** Fields left out keep their value. */
export const posUpdateInputSchema = pos.update;

/** `sysPos/page` (and `list`, `export`): name contains, code contains, status equal. */
export const posPageInputSchema = pos.page;
export type PosPageInput = z.input<typeof posPageInputSchema>;
