import { STATUS } from '@shuzhi/contracts/envelope';
import { MENU_TYPE, type MenuNode } from '@shuzhi/contracts/menu';
import type { SysMenuTable } from '../../db/schema.ts';
import { grantedMenuIds } from '../../platform/access/permissions.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { SerializedResult } from '../../platform/http/envelope.ts';

/**
 * The login menu tree is cached per user in the process's local tier (ctx.cache.local), serialised, since
 * every page load asks for it and it changes only when an admin edits something.
 *
 * Invalidation contract: a change to one user's grants (their roles, account type or tenant) calls
 * `forgetMenuTree(ctx, userId)`; a change that can touch many users (adding, editing, enabling, disabling or
 * deleting a menu; a role's menus or status; a tenant's menus) calls `forgetAllMenuTrees(ctx)`. Both apply
 * at once here and in every other process. Button permissions live in the session principal: such changes
 * also call `forgetUserSessions` (platform/auth/sessions.ts) for the users concerned.
 */
const TTL_SECONDS = 60;
const KEY_PREFIX = 'menutree:';
const key = (userId: number) => `${KEY_PREFIX}${userId}`;

export async function forgetMenuTree(ctx: AppContext, userId: number): Promise<void> {
  await ctx.cache.local.invalidate(key(userId));
}

export async function forgetAllMenuTrees(ctx: AppContext): Promise<void> {
  await ctx.cache.local.invalidatePrefix(KEY_PREFIX);
}

/** `loginMenuTree` already serialised, as the route sends it; synchronous when cached. */
export function loginMenuTreeResult(
  ctx: AppContext,
  user: AuthUser,
): SerializedResult | Promise<SerializedResult> {
  const hit = ctx.cache.local.get<SerializedResult>(key(user.userId));
  return hit ?? loadMenuTreeResult(ctx, user);
}

async function loadMenuTreeResult(ctx: AppContext, user: AuthUser): Promise<SerializedResult> {
  const since = ctx.cache.local.mark();
  const result = SerializedResult.of(await loginMenuTree(ctx, user));
  ctx.cache.local.set(key(user.userId), result, TTL_SECONDS, since);
  return result;
}

/** The columns a menu node is built from; administration and the login tree read the same ones. */
const MENU_COLUMNS = [
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
] as const;

export type MenuRow = Pick<SysMenuTable, (typeof MENU_COLUMNS)[number]>;

/** The live (not deleted) menu rows, of the given types or of every type, ordered by orderNo then id. */
export function liveMenuRows(ctx: AppContext, types?: readonly number[]): Promise<MenuRow[]> {
  let query = ctx.db.selectFrom('sys_menu').select(MENU_COLUMNS).where('is_delete', '=', 0);
  if (types) query = query.where('type', 'in', types);
  return query.orderBy('order_no').orderBy('id').execute();
}

/** A menu row as a node of the wire tree, without its children. */
export function toMenuNode(row: MenuRow): MenuNode {
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

function pagePaths(nodes: readonly MenuNode[]): string[] {
  return nodes.flatMap((node) => [
    ...(node.type === MENU_TYPE.menu && node.path.startsWith('/') && !node.meta.isHide ? [node.path] : []),
    ...pagePaths(node.children),
  ]);
}

/**
 * A directory's redirect when the user may open that page, otherwise the first page of the directory they
 * may open: a tenant admin's 平台管理 names 参数配置, a platform-only page they are never given.
 */
function reachableRedirect(dir: MenuNode): string | null {
  const paths = pagePaths(dir.children);
  if (dir.redirect && paths.includes(dir.redirect)) return dir.redirect;
  return paths[0] ?? dir.redirect;
}

/**
 * Directories and menus the user may open, as a tree ordered by orderNo then id. A granted menu brings its
 * directories along; a disabled node hides its whole branch; a directory left without pages is dropped.
 */
export async function loginMenuTree(ctx: AppContext, user: AuthUser): Promise<MenuNode[]> {
  const rows = await liveMenuRows(ctx, [MENU_TYPE.dir, MENU_TYPE.menu]);
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
      const node = toMenuNode(row);
      node.children = build(row.id);
      if (row.type !== MENU_TYPE.dir) return [node];
      if (node.children.length === 0) return [];
      node.redirect = reachableRedirect(node);
      return [node];
    });
  const roots = rows.filter((r) => r.pid === 0 || !byId.has(r.pid)).map((r) => r.pid);
  return [...new Set(roots)].flatMap(build);
}

export function ownButtonPermissions(user: AuthUser): string[] {
  return [...user.permissions];
}
