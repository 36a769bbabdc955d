import { z } from 'zod';
import { pageInputSchema } from './envelope.ts';

/**
 * Calls of the Admin.NET family's clients that Shuzhi answers beside its own (docs/wire.md, "Family
 * compatibility"). The answers have the shapes those clients read.
 */

/** `POST /api/sysLang/dropdownData` (public): the languages Shuzhi speaks, each named in itself. */
export const langOptionSchema = z.object({ label: z.string(), value: z.string(), code: z.string() });

/**
 * `POST /api/sysSchedule/page`: the family's personal calendar (日程). Shuzhi keeps none: always an empty page
 * of the size asked for.
 */
export const schedulePageInputSchema = pageInputSchema.extend({
  startTime: z.string().max(32).nullable().optional(),
  endTime: z.string().max(32).nullable().optional(),
});
