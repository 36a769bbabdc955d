import type { MenuNode, MenuRow } from '@shuzhi/contracts/menu';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { MenuNode, MenuRow };
export type MenuFilters = { title?: string; type?: number };

/** add, update, delete, setStatus, detail and export of `/api/sysMenu/…`. */
export const menuResource = createResource<MenuRow, MenuFilters>('sysMenu');

export const MENU_KEYS = {
  tree: (filters: MenuFilters) => ['sysMenu', 'list', filters] as const,
};

export const menuApi = {
  /** The administration tree: every node of any type and status; filtered, the matches with their ancestors. */
  tree: (filters: MenuFilters) =>
    http.get<MenuNode[]>('/api/sysMenu/list', {
      ...(filters.title ? { Title: filters.title } : {}),
      ...(filters.type ? { Type: filters.type } : {}),
    }),
};
