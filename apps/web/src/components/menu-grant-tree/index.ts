export {
  checkedFromOwn,
  conduct,
  flattenMenus,
  type GrantMenuNode,
  grantPayload,
  leafIds,
  parentIds,
} from './menu-check.ts';
export { MenuGrantDrawer, type MenuGrantDrawerProps } from './menu-grant-drawer.tsx';
