/**
 * Permission catalogue: `resource:action` strings. Buttons (menu type 3) carry them, roles are granted
 * them, and every server route declares one of them (or `public` / `loggedIn`).
 */
const CRUD = ['page', 'list', 'detail', 'add', 'update', 'delete'] as const;

export const PERMISSION_RESOURCES = {
  sysUser: [...CRUD, 'setStatus', 'resetPwd', 'unlockLogin', 'grantRole', 'import', 'export'],
  sysOrg: [...CRUD, 'setStatus', 'export'],
  sysPos: [...CRUD, 'setStatus', 'export'],
  sysUserGroup: [...CRUD, 'setStatus', 'export'],
  sysRole: [...CRUD, 'setStatus', 'grantMenu', 'grantDataScope', 'export'],
  sysTenant: [...CRUD, 'setStatus', 'grantMenu', 'resetPwd', 'export'],
  sysMenu: [...CRUD, 'setStatus', 'export'],
  sysOpenAccess: [...CRUD, 'setStatus', 'resetSecret', 'export'],
  sysConfig: [...CRUD, 'batchDelete', 'batchUpdate', 'export'],
  sysDictType: [...CRUD, 'setStatus'],
  sysDictData: [...CRUD, 'setStatus'],
  sysRegion: [...CRUD, 'sync'],
  sysNotice: [...CRUD, 'publish', 'withdraw'],
  sysFile: [...CRUD, 'upload', 'download'],
  sysLogVis: ['page', 'detail', 'export', 'clear'],
  sysLogOp: ['page', 'detail', 'export', 'clear'],
  sysLogEx: ['page', 'detail', 'export', 'clear'],
  sysLogDiff: ['page', 'detail', 'export', 'clear'],
  sysCache: ['list', 'detail', 'delete'],
  sysServer: ['detail'],
  sysJob: [...CRUD, 'start', 'pause', 'runNow', 'cancel'],
  sysOnlineUser: ['page', 'forceOffline', 'export'],
  sysTag: [...CRUD],
  sysCodeGen: [...CRUD, 'generate'],
  sysDataDecrypt: ['page', 'decrypt'],
  sysDbDesigner: ['list', 'add', 'update', 'delete'],
  sysFormDesigner: [...CRUD],
  sysOcr: ['recognize'],
  sysPlugin: [...CRUD],
  sysPrint: [...CRUD, 'preview'],
  sysCityTableSync: ['page', 'sync'],
  sysTableDataNo: ['page', 'update'],
  sysTableRelation: [...CRUD],
  sysTaskFlow: [...CRUD],
  sysTimedDecrypt: [...CRUD],
  sysTimedSql: [...CRUD, 'run'],
  sysWechatUser: ['page', 'delete'],
  sysCompanyTool: ['page', 'run'],
  sysDataTransfer: ['page', 'run'],
  sysVisualDemo: ['page'],
  diyTable: [...CRUD, 'design', 'publish', 'clone', 'export', 'import'],
  diyReport: [...CRUD, 'submit', 'audit', 'export', 'import'],
  diyTableClassify: [...CRUD],
  diyRecycle: ['page', 'restore', 'purge'],
  diyPeriod: ['page', 'add', 'update', 'close', 'reopen'],
  diyTask: [
    'page',
    'add',
    'distribute',
    'transfer',
    'urge',
    'edit',
    'close',
    'delete',
    'export',
    'zero',
    'review',
  ],
  dashboard: ['view'],
  diyTaskSchedule: ['page', 'add', 'edit', 'delete'],
  sysNoLoginLink: ['page', 'add', 'revoke'],
  formBoard: ['view', 'export'],
  cockpit: ['view', 'config'],
  efficiencyBoard: ['view', 'export'],
  sysStatement: ['page', 'add', 'edit', 'withdraw', 'delete'],
  sysScene: ['page', 'add', 'edit', 'withdraw', 'delete'],
  diyWord: ['page', 'add', 'delete', 'generate'],
} as const;

type Resources = typeof PERMISSION_RESOURCES;
export type Permission = {
  [R in keyof Resources]: `${R & string}:${Resources[R][number]}`;
}[keyof Resources];

export const ALL_PERMISSIONS: readonly Permission[] = Object.entries(PERMISSION_RESOURCES).flatMap(
  ([resource, actions]) => actions.map((action) => `${resource}:${action}` as Permission),
);

const PERMISSION_SET = new Set<string>(ALL_PERMISSIONS);
export function isPermission(value: string): value is Permission {
  return PERMISSION_SET.has(value);
}

/** What a route requires: a catalogue permission, any signed-in user, or nobody (public). */
export type RouteAccess = Permission | 'loggedIn' | 'public';
