import type { MenuNode } from '@shuzhi/contracts/menu';
import { REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../platform/http/http.ts';
import { useRealtimeEvent } from '../../platform/realtime/realtime.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

/** 我的任务 (issue 19 §7): its page, and the count of the caller's parts still to do shown in the top bar and on the home page. */
export const MY_TASK_PATH = '/diyTask/mine';

/** Under `diyTask`, so that the task pages' one invalidation refreshes it too. */
const MY_TASK_COUNT_KEY = ['diyTask', 'mineCount'] as const;

const hasPath = (menus: readonly MenuNode[], path: string): boolean =>
  menus.some((m) => m.path === path || hasPath(m.children, path));

/** The caller holds the 我的任务 menu. */
export const useHasMyTasks = () => useSessionStore((state) => hasPath(state.menus, MY_TASK_PATH));

/** `/api/diyTask/mineCount`, refreshed whenever a notice arrives (tasks handed out, on, transferred, urged). */
export function useMyTaskCount(enabled: boolean): number {
  const client = useQueryClient();
  const count = useQuery({
    queryKey: MY_TASK_COUNT_KEY,
    queryFn: () => http.get<number>('/api/diyTask/mineCount', undefined, { silent: true }),
    staleTime: 30_000,
    enabled,
  });
  useRealtimeEvent(REALTIME_EVENTS.notice, () => {
    if (enabled) void client.invalidateQueries({ queryKey: MY_TASK_COUNT_KEY });
  });
  return count.data ?? 0;
}
