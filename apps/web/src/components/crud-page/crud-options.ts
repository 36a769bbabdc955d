import type { WithId } from '../../platform/data/resource.ts';
import type { CrudColumn, CrudPageProps } from './crud-types.ts';

/** CrudPage's props with their defaults filled in: what the page's hooks and parts read. */
export function resolveCrudProps<T extends WithId, F extends object>(props: CrudPageProps<T, F>) {
  return {
    ...props,
    searchFields: props.searchFields ?? [],
    formFields: props.formFields ?? [],
    canDelete: props.canDelete ?? (() => true),
    canSetStatus: props.canSetStatus ?? (() => true),
    invalidates: props.invalidates ?? [],
    enabled: props.enabled ?? true,
    defaultPageSize: props.defaultPageSize ?? 20,
    modalWidth: props.modalWidth ?? 640,
    extraActionWidth: props.extraActionWidth ?? 0,
    testId: props.testId ?? 'crud',
    compact: props.compact ?? false,
  };
}

export type CrudOptions<T extends WithId, F extends object> = ReturnType<typeof resolveCrudProps<T, F>>;

/** The server's sort field of a column, null when it does not sort. */
export function sortFieldOf<T>(column: CrudColumn<T>): string | null {
  if (!column.sort) return null;
  return typeof column.sort === 'string' ? column.sort : column.key;
}
