import { z } from 'zod';
import { filterNumber, filterText } from './crud.ts';
import { pageInputSchema } from './envelope.ts';

export const MENU_TYPE = { dir: 1, menu: 2, button: 3 } as const;

const menuMetaSchema = z.object({
  title: z.string(),
  icon: z.string().nullable(),
  isIframe: z.boolean(),
  isLink: z.string().nullable(),
  isHide: z.boolean(),
  isKeepAlive: z.boolean(),
  isAffix: z.boolean(),
  roles: z.array(z.string()).optional(),
});

export type MenuNode = {
  id: number;
  pid: number;
  type: number;
  name: string;
  path: string;
  component: string | null;
  redirect: string | null;
  permission: string | null;
  orderNo: number;
  status: number;
  meta: z.infer<typeof menuMetaSchema>;
  children: MenuNode[];
};

export const menuNodeSchema: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    pid: z.number(),
    type: z.number(),
    name: z.string(),
    path: z.string(),
    component: z.string().nullable(),
    redirect: z.string().nullable(),
    permission: z.string().nullable(),
    orderNo: z.number(),
    status: z.number(),
    meta: menuMetaSchema,
    children: z.array(menuNodeSchema),
  }),
);

/**
 * Pages that stay with the platform operator (the super admin): a tenant's menu set never holds them or their
 * buttons, so no tenant admin or role can be granted tenant or menu management, the installation's
 * scheduled jobs, its parameters, dictionaries, system info and regions (one copy for every tenant), the
 * shared cache (every tenant's sessions) or the host's figures. docs/tenancy.md has the reasons.
 */
export const PLATFORM_ONLY_MENUS = [
  'sysTenant',
  'sysMenu',
  'sysJob',
  'jobDashboard',
  'sysConfig',
  'sysDict',
  'sysInfo',
  'sysCache',
  'sysServer',
  'sysRegion',
] as const;

/** A menu as `sysMenu/detail` returns it: the stored columns, flat (the tree nodes nest them under `meta`). */
export const menuRowSchema = z.object({
  id: z.number(),
  pid: z.number(),
  type: z.number(),
  name: z.string(),
  path: z.string().nullable(),
  component: z.string().nullable(),
  redirect: z.string().nullable(),
  permission: z.string().nullable(),
  title: z.string(),
  icon: z.string().nullable(),
  isIframe: z.number(),
  /** The external address of a link or iframe page (`meta.isLink` in the tree). */
  outLink: z.string().nullable(),
  isHide: z.number(),
  isKeepAlive: z.number(),
  isAffix: z.number(),
  orderNo: z.number(),
  status: z.number(),
  remark: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string().nullable(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  updateUserId: z.number().nullable(),
  updateUserName: z.string().nullable(),
});
export type MenuRow = z.infer<typeof menuRowSchema>;

const flag = z.union([z.literal(0), z.literal(1), z.boolean().transform((b) => (b ? 1 : 0))]);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((v) => (v === '' ? null : v));

const menuFields = {
  pid: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  type: z.union([z.literal(MENU_TYPE.dir), z.literal(MENU_TYPE.menu), z.literal(MENU_TYPE.button)]),
  name: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z][\w:.-]*$/),
  path: optionalText(256),
  component: optionalText(256),
  redirect: optionalText(256),
  permission: optionalText(128),
  title: z.string().trim().min(1).max(64),
  icon: optionalText(64),
  isIframe: flag,
  outLink: optionalText(512),
  isHide: flag,
  isKeepAlive: flag,
  isAffix: flag,
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  status: z.union([z.literal(1), z.literal(2)]),
  remark: optionalText(256),
};

export const menuAddInputSchema = z.object({
  pid: menuFields.pid.default(0),
  type: menuFields.type,
  name: menuFields.name,
  path: menuFields.path.optional(),
  component: menuFields.component.optional(),
  redirect: menuFields.redirect.optional(),
  permission: menuFields.permission.optional(),
  title: menuFields.title,
  icon: menuFields.icon.optional(),
  isIframe: menuFields.isIframe.default(0),
  outLink: menuFields.outLink.optional(),
  isHide: menuFields.isHide.default(0),
  isKeepAlive: menuFields.isKeepAlive.default(1),
  isAffix: menuFields.isAffix.default(0),
  orderNo: menuFields.orderNo.default(100),
  status: menuFields.status.default(1),
  remark: menuFields.remark.optional(),
});

/** Fields left out keep their value. */
export const menuUpdateInputSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  pid: menuFields.pid.optional(),
  type: menuFields.type.optional(),
  name: menuFields.name.optional(),
  path: menuFields.path.optional(),
  component: menuFields.component.optional(),
  redirect: menuFields.redirect.optional(),
  permission: menuFields.permission.optional(),
  title: menuFields.title.optional(),
  icon: menuFields.icon.optional(),
  isIframe: menuFields.isIframe.optional(),
  outLink: menuFields.outLink.optional(),
  isHide: menuFields.isHide.optional(),
  isKeepAlive: menuFields.isKeepAlive.optional(),
  isAffix: menuFields.isAffix.optional(),
  orderNo: menuFields.orderNo.optional(),
  status: menuFields.status.optional(),
  remark: menuFields.remark.optional(),
});

// An empty search box means no filter.
const blank = z.union([z.literal(''), z.null()]).transform(() => undefined);

/** `GET /sysMenu/list?Title=&Type=`: the whole tree (buttons included, any status), or the matches with their ancestors. */
export const menuListQuerySchema = z.object({
  Title: z.union([blank, z.string().trim().max(64)]).optional(),
  Type: z.union([blank, z.coerce.number().int().min(1).max(3)]).optional(),
});

/** `POST /sysMenu/export` filters (title contains, type equals). */
export const menuExportInputSchema = pageInputSchema.extend({ title: filterText, type: filterNumber });
