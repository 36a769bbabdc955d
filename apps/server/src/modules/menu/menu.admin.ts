import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import {
  MENU_TYPE,
  type MenuNode,
  type menuAddInputSchema,
  type menuUpdateInputSchema,
} from '@shuzhi/contracts/menu';
import { isPermission } from '@shuzhi/contracts/permissions';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, SysMenuTable } from '../../db/schema.ts';
import { forgetTenantSessions } from '../../platform/auth/sessions.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { CrudHooks } from '../../platform/crud/crud.ts';
import { AppError, HttpError } from '../../platform/errors/app-error.ts';
import { forgetAllUserInfo } from '../auth/user-info.service.ts';
import { forgetAllMenuTrees, liveMenuRows, type MenuRow, toMenuNode } from './menu.service.ts';

/**
 * Menu administration (`/api/sysMenu/…` writes). Menus are global: only the super admin changes them. Every
 * write forgets all menu trees, user infos and cached permission sets, so the change shows on the next request.
 */

const NAME_LABEL = { 'zh-CN': '路由名称', en: 'Route name', 'zh-TW': '路由名稱' };

function requireSuperAdmin(user: AuthUser): void {
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) throw new HttpError(403);
}

type Values = Partial<SysMenuTable>;
type Trx = Transaction<Database>;

/** Which parent types a node of each type may sit under (0 = the root). */
function parentAllowed(type: number, parentType: number | 0): boolean {
  if (type === MENU_TYPE.button) return parentType === MENU_TYPE.menu;
  return parentType === 0 || parentType === MENU_TYPE.dir;
}

async function liveMenu(trx: Trx, id: number) {
  return trx
    .selectFrom('sys_menu')
    .select(['id', 'pid', 'type'])
    .where('id', '=', id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
}

/**
 * The rules of a node as it is about to be stored (`row` is the node before an update):
 * parent exists (D1002), is not the node or below it (D2002), fits the type (D4002); the node's children fit
 * its (new) type (D4002); a button's permission is in the catalogue (D4001); names are unique (D1006).
 */
async function check(trx: Trx, next: Values, row: SysMenuTable | null): Promise<void> {
  const id = row?.id ?? (next.id as number);
  const type = next.type as number;
  const pid = next.pid ?? 0;

  if (pid !== 0) {
    if (row && pid === row.id) throw new AppError('D2002');
    const parent = await liveMenu(trx, pid);
    if (!parent) throw new AppError('D1002');
    if (row) {
      // Walk up from the new parent: meeting the node itself means a cycle.
      for (let node: { id: number; pid: number } | undefined = parent; node && node.pid !== 0; ) {
        if (node.pid === row.id) throw new AppError('D2002');
        node = await liveMenu(trx, node.pid);
      }
    }
    if (!parentAllowed(type, parent.type)) throw new AppError('D4002');
  } else if (!parentAllowed(type, 0)) {
    throw new AppError('D4002');
  }

  if (row && row.type !== type) {
    const children = await trx
      .selectFrom('sys_menu')
      .select('type')
      .distinct()
      .where('pid', '=', row.id)
      .where('is_delete', '=', 0)
      .execute();
    if (children.some((c) => !parentAllowed(c.type, type))) throw new AppError('D4002');
  }

  if (type === MENU_TYPE.button) {
    const permission = next.permission ?? '';
    if (!isPermission(permission)) throw new AppError('D4001', { permission });
  }

  // Directories and pages are routes: their names are unique everywhere. A button is named by its
  // permission, which may repeat on another page (a shared action), but not twice on one page.
  let same = trx
    .selectFrom('sys_menu')
    .select('id')
    .where('name', '=', next.name as string)
    .where('is_delete', '=', 0)
    .where('id', '!=', id);
  same =
    type === MENU_TYPE.button
      ? same.where('pid', '=', pid).where('type', '=', MENU_TYPE.button)
      : same.where('type', '!=', MENU_TYPE.button);
  if (await same.executeTakeFirst())
    throw new AppError('D1006', { field: NAME_LABEL, value: String(next.name) });
}

/** Directories use the layout; only buttons carry a permission. */
function normalise(values: Values): void {
  if (values.type === MENU_TYPE.dir && !values.component) values.component = 'Layout';
  if (values.type !== undefined && values.type !== MENU_TYPE.button) values.permission = null;
  if (values.type === MENU_TYPE.button) {
    values.component = null;
    values.redirect = null;
  }
}

type AddOut = z.output<typeof menuAddInputSchema>;
type UpdateOut = z.output<typeof menuUpdateInputSchema>;

export const menuHooks: CrudHooks<'sys_menu', AddOut, UpdateOut> = {
  async beforeAdd({ trx, user, values }) {
    requireSuperAdmin(user);
    normalise(values);
    await check(trx, values, null);
  },
  async beforeUpdate({ trx, user, values, row }) {
    requireSuperAdmin(user);
    const merged = { ...row, ...values };
    if (values.type !== undefined || values.permission !== undefined) {
      normalise(merged);
      Object.assign(values, {
        permission: merged.permission,
        component: merged.component,
        redirect: merged.redirect,
      });
    }
    await check(trx, merged, row);
  },
  async beforeSetStatus({ user }) {
    requireSuperAdmin(user);
  },
  async beforeDelete({ trx, user, rows }) {
    requireSuperAdmin(user);
    const ids = rows.map((r) => r.id);
    const child = await trx
      .selectFrom('sys_menu')
      .select('id')
      .where('pid', 'in', ids)
      .where('is_delete', '=', 0)
      .where('id', 'not in', ids)
      .executeTakeFirst();
    if (child) throw new AppError('D4000');
  },
  async afterChange({ ctx }) {
    await forgetMenuEverywhere(ctx);
  },
};

/** After any menu write: every tree, user info and permission set may have changed. */
export async function forgetMenuEverywhere(ctx: AppContext): Promise<void> {
  await forgetAllMenuTrees(ctx);
  await forgetAllUserInfo(ctx);
  await forgetTenantSessions(ctx);
}

/**
 * The menu tree for administration: every live node of any type and status, ordered by orderNo then id.
 * With a title or type filter: the matching nodes with their ancestors (so they stay in place in the tree); a
 * node whose title matches brings what lies below it (of the filtered type).
 */
export async function adminMenuTree(
  ctx: AppContext,
  filter: { title?: string | undefined; type?: number | undefined },
): Promise<MenuNode[]> {
  const rows = await liveMenuRows(ctx);
  const byId = new Map(rows.map((r) => [r.id, r]));
  let keep: Set<number> | null = null;
  const title = filter.title?.toLowerCase();
  if (title || filter.type) {
    keep = new Set();
    // A title matches the node or one of its ancestors: a page found by title comes with its buttons.
    const titleHit = (row: MenuRow): boolean => {
      for (let node: MenuRow | undefined = row; node; node = byId.get(node.pid)) {
        if (node.title.toLowerCase().includes(title as string)) return true;
        if (node.pid === node.id) break;
      }
      return false;
    };
    for (const row of rows) {
      if (filter.type && row.type !== filter.type) continue;
      if (title && !titleHit(row)) continue;
      for (let node: MenuRow | undefined = row; node && !keep.has(node.id); node = byId.get(node.pid)) {
        keep.add(node.id);
      }
    }
  }
  const nodes = new Map<number, MenuNode>();
  for (const row of rows) {
    if (keep && !keep.has(row.id)) continue;
    nodes.set(row.id, toMenuNode(row));
  }
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.pid === 0 ? undefined : nodes.get(node.pid);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
