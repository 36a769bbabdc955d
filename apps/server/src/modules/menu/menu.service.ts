import { STATUS } from '@shuzhi/contracts/envelope';
import { MENU_TYPE, type MenuNode } from '@shuzhi/contracts/menu';
import type { SysMenuTable } from '../../db/schema.ts';
import { grantedMenuIds } from '../../platform/access/permissions.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';

type MenuRow = Pick<
  SysMenuTable,
  | 'id'
  | 'pid'
  | 'type'
  | 'name'
  | 'path'
  | 'component'
  | 'redirect'
  | 'permission'
  | 'title'
  | 'icon'
  | 'is_iframe'
  | 'out_link'
  | 'is_hide'
  | 'is_keep_alive'
  | 'is_affix'
  | 'order_no'
  | 'status'
>;

function toNode(row: MenuRow): MenuNode {
  return {
    id: row.id,
    pid: row.pid,
    type: row.type,
    name: row.name,
    path: row.path ?? '',
    component: row.component,
    redirect: row.redirect,
    permission: row.permission,
    orderNo: row.order_no,
    status: row.status,
    meta: {
      title: row.title,
      icon: row.icon,
      isIframe: row.is_iframe === 1,
      isLink: row.out_link,
      isHide: row.is_hide === 1,
      isKeepAlive: row.is_keep_alive === 1,
      isAffix: row.is_affix === 1,
    },
    children: [],
  };
}

/**
 * Directories and menus the user may open, as a tree ordered by orderNo then id. A granted menu brings its
 * directories along; a disabled node hides its whole branch; a directory left without pages is dropped.
 */
export async function loginMenuTree(ctx: AppContext, user: AuthUser): Promise<MenuNode[]> {
  const rows: MenuRow[] = await ctx.db
    .selectFrom('sys_menu')
    .select([
      'id',
      'pid',
      'type',
      'name',
      'path',
      'component',
      'redirect',
      'permission',
      'title',
      'icon',
      'is_iframe',
      'out_link',
      'is_hide',
      'is_keep_alive',
      'is_affix',
      'order_no',
      'status',
    ])
    .where('is_delete', '=', 0)
    .where('type', 'in', [MENU_TYPE.dir, MENU_TYPE.menu])
    .orderBy('order_no')
    .orderBy('id')
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));

  const granted = await grantedMenuIds(ctx, user);
  let allowed: Set<number>;
  if (granted === 'all') {
    allowed = new Set(byId.keys());
  } else {
    allowed = new Set<number>();
    for (const id of granted) {
      let row = byId.get(id);
      while (row && !allowed.has(row.id)) {
        allowed.add(row.id);
        row = byId.get(row.pid);
      }
    }
  }

  const children = new Map<number, MenuRow[]>();
  for (const row of rows) {
    if (!allowed.has(row.id) || row.status !== STATUS.enabled) continue;
    const list = children.get(row.pid) ?? [];
    list.push(row);
    children.set(row.pid, list);
  }
  const build = (pid: number): MenuNode[] =>
    (children.get(pid) ?? []).flatMap((row) => {
      const node = toNode(row);
      node.children = build(row.id);
      return row.type === MENU_TYPE.dir && node.children.length === 0 ? [] : [node];
    });
  const roots = rows.filter((r) => r.pid === 0 || !byId.has(r.pid)).map((r) => r.pid);
  return [...new Set(roots)].flatMap(build);
}

export function ownButtonPermissions(user: AuthUser): string[] {
  return [...user.permissions];
}
