import { z } from 'zod';

/** Envelope `code`: 200 success, HTTP-like numbers for platform outcomes, catalogue strings for business errors. */
const envelopeCodeSchema = z.union([z.number().int(), z.string()]);

export const envelopeSchema = <T extends z.ZodType>(result: T) =>
  z.object({
    code: envelopeCodeSchema,
    type: z.enum(['success', 'error', 'warning']),
    message: z.string().nullable(),
    result: result.nullable(),
    extras: z.unknown().nullable(),
    time: z.string(),
    errors: z.record(z.string(), z.array(z.string())).or(z.string()).nullable(),
  });

export type Envelope<T> = {
  code: number | string;
  type: 'success' | 'error' | 'warning';
  message: string | null;
  result: T | null;
  extras: unknown;
  time: string;
  errors: Record<string, string[]> | string | null;
};

export const DESC_STR_DEFAULT = 'descending';

export const pageInputSchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(20),
  field: z.string().max(64).optional().nullable(),
  order: z.string().max(32).optional().nullable(),
  descStr: z.string().max(32).default(DESC_STR_DEFAULT),
});
export type PageInput = z.infer<typeof pageInputSchema>;

export const pageResultSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
    items: z.array(item),
    hasPrevPage: z.boolean(),
    hasNextPage: z.boolean(),
  });

export type PageResult<T> = {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  items: T[];
  hasPrevPage: boolean;
  hasNextPage: boolean;
};

export function pageResult<T>(items: T[], total: number, page: number, pageSize: number): PageResult<T> {
  const totalPages = Math.ceil(total / pageSize);
  return {
    page,
    pageSize,
    total,
    totalPages,
    items,
    hasPrevPage: page > 1,
    hasNextPage: page < totalPages,
  };
}

/** Status values used across the platform. */
export const STATUS = { enabled: 1, disabled: 2 } as const;
export const statusSchema = z.union([z.literal(1), z.literal(2)]);
/** SysFlag: 1 built-in (not deletable), 2 ordinary. */
export const SYS_FLAG = { yes: 1, no: 2 } as const;

export const idSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
