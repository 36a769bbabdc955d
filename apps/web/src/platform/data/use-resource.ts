import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PageRequest, Resource, WithId } from './resource.ts';
import { resourceKeys } from './resource.ts';

/**
 * One page of a resource. The previous page stays on screen while the next page, sort or search of the same
 * list loads; a new `scope` (another dictionary type, another org) is another list, so its rows and total start
 * empty under the loading state instead of showing the old list's figures beside the new heading.
 */
export function useResourcePage<T extends WithId, F extends object>(
  resource: Resource<T, F>,
  body: PageRequest<F>,
  enabled = true,
  scope = '',
) {
  return useQuery({
    queryKey: resourceKeys.page(resource.service, body),
    queryFn: () => resource.page(body),
    meta: { scope },
    placeholderData: (previous, previousQuery) =>
      previousQuery?.meta?.scope === scope ? previous : undefined,
    enabled,
  });
}

/**
 * A write on a resource. Afterwards every query of the service is refetched, plus `also` (keys of
 * other caches the write changes, e.g. the dictionary cache or the profile).
 */
function useResourceMutation<Vars, Result = unknown>(
  service: string,
  mutate: (vars: Vars) => Promise<Result>,
  also: readonly QueryKey[] = [],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: mutate,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: resourceKeys.all(service) }),
        ...also.map((queryKey) => client.invalidateQueries({ queryKey })),
      ]);
    },
  });
}

/** The standard writes of a resource as mutations. */
export function useResourceWrites<T extends WithId, F extends object>(
  resource: Resource<T, F>,
  also: readonly QueryKey[] = [],
) {
  const { service } = resource;
  return {
    add: useResourceMutation(service, (body: Partial<T>) => resource.add(body), also),
    update: useResourceMutation(service, (body: Partial<T> & WithId) => resource.update(body), also),
    remove: useResourceMutation(service, (id: number) => resource.remove(id), also),
    batchRemove: useResourceMutation(service, (ids: number[]) => resource.batchRemove(ids), also),
    setStatus: useResourceMutation(
      service,
      ({ id, status }: { id: number; status: 1 | 2 }) => resource.setStatus(id, status),
      also,
    ),
  };
}
