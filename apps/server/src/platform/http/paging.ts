import { type PageInput, type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import { own } from '@shuzhi/contracts/own';
import type { SelectQueryBuilder } from 'kysely';

/**
 * Runs a paged query per REFERENCE: sorting applies only when both `field` and `order` are set and the
 * field is one of `sortable` (JSON name → column); otherwise newest first.
 */
export async function paged<DB, TB extends keyof DB, O, Item = O>(
  query: SelectQueryBuilder<DB, TB, O>,
  input: PageInput,
  options: { sortable: Record<string, string>; defaultOrder: string; map?: (row: O) => Item },
): Promise<PageResult<Item>> {
  const countRow = (await query
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirst()) as { total: number | string | bigint } | undefined;
  const total = Number(countRow?.total ?? 0);
  const column = input.field && input.order ? own(options.sortable, input.field) : undefined;
  const direction = input.order === input.descStr ? 'desc' : 'asc';
  // biome-ignore lint/suspicious/noExplicitAny: column names come from the whitelist above.
  let ordered: any = query;
  ordered = column
    ? ordered.orderBy(column, direction).orderBy(options.defaultOrder, 'desc')
    : ordered.orderBy(options.defaultOrder, 'desc');
  const rows = (await ordered
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .execute()) as O[];
  const items = options.map ? rows.map(options.map) : (rows as unknown as Item[]);
  return pageResult(items, total, input.page, input.pageSize);
}
