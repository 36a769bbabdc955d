import { z } from 'zod';
import { idSchema, statusSchema } from './envelope.ts';

/**
 * Shapes shared by every resource the server's CRUD factory serves (`/api/{service}/page`, `list`,
 * `detail`, `add`, `update`, `delete`, `batchDelete`, `setStatus`, `export`).
 */

/** Audit columns every admin row carries (DESIGN §4), in camelCase. */
export const auditFieldsSchema = z.object({
  createTime: z.string(),
  updateTime: z.string().nullable(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  updateUserId: z.number().nullable(),
  updateUserName: z.string().nullable(),
});

/** `GET /detail?Id=`. */
export const detailQuerySchema = z.object({ Id: idSchema });
/** `GET /{id}`. */
export const idParamsSchema = z.object({ id: idSchema });
/** `POST /delete`, `DELETE /delete` (body, or `?id=`). */
export const idInputSchema = z.object({ id: idSchema });

export const MAX_BATCH = 1000;
const idList = z.array(idSchema).min(1).max(MAX_BATCH);
/** `POST /batchDelete`: `{ ids }`, or the bare array that Admin.NET-family clients send. */
export const batchDeleteInputSchema = z.union([idList, z.object({ ids: idList })]);

/** `POST /setStatus`: 1 enabled, 2 disabled. */
export const setStatusInputSchema = z.object({ id: idSchema, status: statusSchema });

/** `POST /add` answers the new record's id. */
export const addResultSchema = z.number();

// Filters of a page/list/export request. Clients send empty values for an empty search box: they mean "no filter".
const empty = z.union([z.literal(''), z.null()]).transform(() => undefined);

/** A text filter (exact or contains, as the resource declares); empty means none. */
export const filterText = z.union([empty, z.string().trim().max(128)]).optional();

/** A number filter (status, type id…), also from a query string; empty means none. */
export const filterNumber = z
  .union([
    empty,
    z.coerce
      .number()
      .int()
      .min(-(2 ** 53) + 1)
      .max(Number.MAX_SAFE_INTEGER),
  ])
  .optional();

/**
 * An org filter: like `filterNumber`, and 0 or below means none too (the family's org tree sends `orgId: -1`
 * for "all orgs").
 */
export const filterOrgId = filterNumber.transform((value) =>
  value !== undefined && value > 0 ? value : undefined,
);

/** A list of ids: an array, or `1,2,3` in a query string; empty means none. */
export const filterIds = z
  .union([
    empty,
    z
      .string()
      .max(20_000)
      .transform((text) =>
        text
          .split(',')
          .filter((part) => part.trim() !== '')
          .map(Number),
      ),
    z.array(z.union([z.string(), z.number()])).transform((list) => list.map(Number)),
  ])
  .pipe(z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(MAX_BATCH).optional())
  .optional();

const DATE_TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;
const bound = z.union([empty, z.string().trim().regex(DATE_TIME)]).optional();

/**
 * A date range `[from, to]` of `yyyy-MM-dd` or `yyyy-MM-dd HH:mm:ss` (either side may be empty); a date-only
 * `to` includes that whole day.
 */
export const filterDateRange = z.union([empty, z.tuple([bound, bound])]).optional();
