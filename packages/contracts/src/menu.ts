import { z } from 'zod';

export const MENU_TYPE = { dir: 1, menu: 2, button: 3 } as const;

export const menuMetaSchema = z.object({
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
