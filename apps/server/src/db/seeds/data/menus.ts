import type { PERMISSION_RESOURCES } from '@shuzhi/contracts/permissions';
import type { SeedMenu } from '../types.ts';

/**
 * The full menu tree: every admin area of SPEC §2 and the other view areas, with their buttons.
 *
 * Only the pages that exist today are enabled — 首页, 个人中心, 关于 (with their directory 帮助), and under 平台管理
 * 参数配置, 字典管理, 行政区划, 系统信息, 缓存管理, 服务监控 and the four logs of 日志管理; everything else is seeded disabled so that no user ever
 * sees a dead link, and an admin (or a later seed) enables a menu when its page lands. A directory is enabled exactly when one of its children is.
 * Buttons are named by their permission string, which comes from the permission catalogue; a permission may
 * sit on more than one page (系统信息 saves with sysConfig:update), and is unique within its page.
 */

type Resources = typeof PERMISSION_RESOURCES;
type Resource = keyof Resources;
type Action<R extends Resource> = Resources[R][number];

const ACTION_TITLES: Record<string, string> = {
  page: '查询',
  list: '列表',
  detail: '详情',
  add: '增加',
  update: '编辑',
  delete: '删除',
  setStatus: '设置状态',
  resetPwd: '重置密码',
  unlockLogin: '解除锁定',
  grantRole: '授权角色',
  import: '导入',
  export: '导出',
  grantMenu: '授权菜单',
  grantDataScope: '授权数据范围',
  resetSecret: '重置密钥',
  batchDelete: '批量删除',
  batchUpdate: '批量修改',
  sync: '同步',
  publish: '发布',
  withdraw: '撤回',
  upload: '上传',
  download: '下载',
  clear: '清空',
  start: '启动',
  pause: '暂停',
  runNow: '立即执行',
  cancel: '取消',
  forceOffline: '强制下线',
  generate: '生成代码',
  decrypt: '解密',
  recognize: '识别',
  preview: '预览',
  run: '执行',
  design: '设计',
  clone: '复制',
  submit: '提交',
  audit: '审核',
  view: '查看',
  restore: '恢复',
  purge: '彻底删除',
  distribute: '下发',
  transfer: '转办',
  edit: '修改',
  close: '关闭',
  zero: '零报告',
  revoke: '撤销',
  urge: '催办',
  config: '设置',
};

const CRUD = ['page', 'list', 'detail', 'add', 'update', 'delete'] as const;

/** Buttons of one resource; `prefix` tells apart two resources on one page (字典类型 / 字典值). */
function buttons<R extends Resource>(resource: R, actions: readonly Action<R>[], prefix = ''): SeedMenu[] {
  return actions.map((action, i) => {
    const permission = `${resource}:${action}`;
    return {
      name: permission,
      type: 3,
      title: prefix + (ACTION_TITLES[action] ?? action),
      permission,
      orderNo: i + 1,
      enabled: false,
    };
  });
}

type PageOptions = Pick<
  SeedMenu,
  'isHide' | 'isKeepAlive' | 'isAffix' | 'isIframe' | 'outLink' | 'redirect'
> & {
  buttons?: SeedMenu[];
  enabled?: boolean;
};

function page(
  name: string,
  title: string,
  path: string,
  component: string,
  icon: string,
  orderNo: number,
  { buttons: btns = [], enabled = false, ...rest }: PageOptions = {},
): SeedMenu {
  const menu: SeedMenu = { name, type: 2, title, path, component, icon, orderNo, enabled, ...rest };
  if (btns.length) {
    menu.children = btns.map((b, i) => ({ ...b, orderNo: i + 1, enabled }));
  }
  return menu;
}

/** A hidden page reached from another page (an editor, a designer, a loader), never from the menu itself. */
function hidden(
  name: string,
  title: string,
  path: string,
  component: string,
  orderNo: number,
  enabled = false,
): SeedMenu {
  return page(name, title, path, component, 'FileOutlined', orderNo, { isHide: true, enabled });
}

function dir(
  name: string,
  title: string,
  path: string,
  icon: string,
  orderNo: number,
  children: SeedMenu[],
): SeedMenu {
  const visible = children.filter((c) => c.enabled && c.type === 2 && !c.isHide);
  const first = visible[0] ?? children.find((c) => c.type === 2 && !c.isHide);
  return {
    name,
    type: 1,
    title,
    path,
    component: 'Layout',
    redirect: first?.path,
    icon,
    orderNo,
    enabled: children.some((c) => c.enabled),
    children,
  };
}

const home = page('home', '首页', '/dashboard', '/home/dashboard/index', 'HomeOutlined', 1, {
  isAffix: true,
  isKeepAlive: true,
  enabled: true,
  buttons: buttons('dashboard', ['view']),
});

/**
 * 企业门户: the enterprise portal (a page of the web app of its own, SPEC §2 `/enterprise`), the home of enterprise
 * (666) accounts; granted to the enterprise filler role.
 */
const enterprisePortal = page(
  'enterprisePortal',
  '企业门户',
  '/enterprise',
  '/enterprise/index',
  'ShopOutlined',
  2,
  {
    enabled: true,
  },
);

const reportCenter = dir('reportCenter', '报表中心', '/report', 'FundProjectionScreenOutlined', 10, [
  page('diyReport', '报表填报', '/diyReport', '/diyReport/index', 'FormOutlined', 1, {
    enabled: true,
    isKeepAlive: true,
    buttons: buttons('diyReport', [
      'page',
      'list',
      'detail',
      'add',
      'update',
      'delete',
      'submit',
      'export',
      'import',
    ]),
  }),
  page('diyReportAudit', '报表审核', '/diyReport/audit', '/diyReport/audit/index', 'AuditOutlined', 2, {
    enabled: true,
    buttons: buttons('diyReport', ['audit']),
  }),
  page('diyTable', '表单管理', '/diyTable', '/diyTable/index', 'TableOutlined', 3, {
    enabled: true,
    buttons: buttons('diyTable', [...CRUD, 'design', 'publish', 'clone', 'export', 'import']),
  }),
  page(
    'diyReportPeriod',
    '填报周期',
    '/diyReport/period',
    '/diyReport/period/index',
    'FieldTimeOutlined',
    4,
    {
      enabled: true,
      buttons: buttons('diyPeriod', ['page', 'add', 'update', 'close', 'reopen']),
    },
  ),
  page('diyField', '字段管理', '/diyReport/field', '/diyReport/field/index', 'ProfileOutlined', 5),
  // Word documents (issue 21 §3, docs/word-documents.md): .docx templates and the documents made from them.
  page('diyWord', '文书报告', '/diyword/index', '/diyword/index', 'FileWordOutlined', 6, {
    enabled: true,
    buttons: buttons('diyWord', ['page', 'add', 'delete', 'generate']),
  }),
  page('diyReportRecycle', '回收站', '/diyReport/recycle', '/diyReport/recycle/index', 'RestOutlined', 7, {
    enabled: true,
    buttons: buttons('diyRecycle', ['page', 'restore', 'purge']),
  }),
  page(
    'diyTableClassify',
    '表单分类',
    '/diyTable/classify',
    '/diyTable/classify/index',
    'AppstoreOutlined',
    8,
    {
      enabled: true,
      buttons: buttons('diyTableClassify', CRUD),
    },
  ),
  hidden('diyFormTable', '表单填报', '/diyReport/index/formTable', '/diyReport/formTable/index', 20, true),
  hidden('diyTableDesign', '表单设计', '/diyTable/design', '/diyTable/design/index', 23, true),
  hidden('diyLoadTable', '汇总报表', '/diyLoad/index/loadTable', '/diyLoad/loadTable/index', 21, true),
  hidden('diyLoadScreen', '数据大屏', '/diyScreen/loadScreen', '/diyScreen/loadScreen/index', 22),
  // Tasks (issue 19, docs/tasks.md): 任务管理 for those who hand forms out, 我的任务 for every receiving unit.
  page('diyTask', '任务管理', '/diyTask', '/diyTask/index', 'SendOutlined', 9, {
    enabled: true,
    buttons: buttons('diyTask', [
      'page',
      'add',
      'distribute',
      'transfer',
      'urge',
      'edit',
      'close',
      'delete',
      'export',
      'review',
    ]),
  }),
  page('diyMyTask', '我的任务', '/diyTask/mine', '/diyTask/mine/index', 'CarryOutOutlined', 10, {
    enabled: true,
    buttons: buttons('diyTask', ['zero']),
  }),
  hidden('diyTaskDetail', '任务详情', '/diyTask/detail', '/diyTask/detail/index', 24, true),
  page(
    'diyTaskSchedule',
    '计划任务',
    '/diyTask/schedule',
    '/diyTask/schedule/index',
    'FieldTimeOutlined',
    11,
    {
      enabled: true,
      buttons: buttons('diyTaskSchedule', ['page', 'add', 'edit', 'delete']),
    },
  ),
  // Login-free links (issue 22, docs/no-login.md): publish, print and revoke links and QR codes of forms.
  page(
    'diyNoLoginLink',
    '扫码填报链接',
    '/diyReport/noLoginLink',
    '/diyReport/noLoginLink/index',
    'QrcodeOutlined',
    11,
    {
      enabled: true,
      buttons: buttons('sysNoLoginLink', ['page', 'add', 'revoke']),
    },
  ),
  // The data dashboard (issue 20 §2, docs/dashboards.md): figures, trend and map of a form or roll-up.
  page('formBoard', '数据看板', '/dataBoard/form', '/dataBoard/form/index', 'BarChartOutlined', 11, {
    enabled: true,
    buttons: buttons('formBoard', ['view', 'export']),
  }),
  // The cockpit (issue 20 §4, docs/dashboards.md): opens the big screen /jsc; admins choose its panels and forms.
  page('cockpit', '驾驶舱', '/jsc/config', '/jsc/config/index', 'DesktopOutlined', 12, {
    enabled: true,
    buttons: buttons('cockpit', ['view', 'config']),
  }),
  // Efficiency analysis (issue 20 §3, docs/dashboards.md): timeliness of the units in scope, from task history.
  page('efficiencyBoard', '效率分析', '/dataBoard/index', '/dataBoard/index', 'LineChartOutlined', 13, {
    enabled: true,
    buttons: buttons('efficiencyBoard', ['view', 'export']),
  }),
  // Public statements and custom scenes (issue 22 §2, docs/no-login.md), beside 扫码填报链接.
  page(
    'diyStatement',
    '公示发布',
    '/diyReport/statement',
    '/diyReport/statement/index',
    'NotificationOutlined',
    11,
    {
      enabled: true,
      buttons: buttons('sysStatement', ['page', 'add', 'edit', 'withdraw', 'delete']),
    },
  ),
  page(
    'diyCustomScene',
    '自定义场景',
    '/diyReport/customScene',
    '/diyReport/customScene/index',
    'AppstoreAddOutlined',
    11,
    {
      enabled: true,
      buttons: buttons('sysScene', ['page', 'add', 'edit', 'withdraw', 'delete']),
    },
  ),
]);

const taskCenter = dir('taskCenter', '任务中心', '/task', 'ScheduleOutlined', 20, [
  page('taskCreate', '新建任务', '/task/create', '/task/create/index', 'PlusSquareOutlined', 1),
  page('taskDistribute', '任务下发', '/task/distribute', '/task/distribute/index', 'SendOutlined', 2),
  page('taskTransfer', '任务转办', '/task/transfer', '/task/transfer/index', 'SwapOutlined', 3),
  page('taskUrge', '任务催办', '/task/urge', '/task/urge/index', 'BellOutlined', 4),
  page('taskAudit', '任务审核', '/task/audit', '/task/audit/index', 'FileDoneOutlined', 5),
  page('taskSchedule', '任务进度', '/task/schedule', '/task/schedule/index', 'HistoryOutlined', 6),
  page('sysTaskFlow', '任务流程', '/task/flow', '/task/flow/index', 'DeploymentUnitOutlined', 7, {
    buttons: buttons('sysTaskFlow', CRUD),
  }),
]);

const dataResource = dir('dataResource', '数据资源', '/dataResource', 'DatabaseOutlined', 30, [
  page(
    'dataResClassify',
    '资源分类',
    '/dataResource/classify',
    '/dataResource/classify/index',
    'AppstoreOutlined',
    1,
  ),
  page(
    'dataResDatabase',
    '库表资源',
    '/dataResource/database',
    '/dataResource/database/index',
    'HddOutlined',
    2,
  ),
  page('dataResFile', '文件资源', '/dataResource/file', '/dataResource/file/index', 'FolderOpenOutlined', 3),
  page(
    'dataResRestApi',
    '接口资源',
    '/dataResource/restApi',
    '/dataResource/restApi/index',
    'ApiOutlined',
    4,
  ),
  page('dataResApply', '资源申请', '/dataResource/apply', '/dataResource/apply/index', 'FileAddOutlined', 5),
  page(
    'dataResAudit',
    '申请审核',
    '/dataResource/audit',
    '/dataResource/audit/index',
    'FileProtectOutlined',
    6,
  ),
  page('dataSync', '数据同步', '/dataResource/sync', '/dataResource/sync/index', 'SyncOutlined', 7),
]);

const enterpriseService = dir('enterpriseService', '企业服务', '/enterpriseService', 'ShopOutlined', 40, [
  page(
    'creditRisk',
    '信用风险',
    '/enterpriseService/creditRisk',
    '/enterpriseService/creditRisk/index',
    'SafetyCertificateOutlined',
    1,
  ),
  page(
    'licence',
    '证照管理',
    '/enterpriseService/licence',
    '/enterpriseService/licence/index',
    'SolutionOutlined',
    2,
  ),
]);

const system = dir('system', '系统管理', '/system', 'SettingOutlined', 50, [
  page('sysUser', '账号管理', '/system/user', '/system/user/index', 'UserOutlined', 1, {
    enabled: true,
    buttons: buttons('sysUser', [
      ...CRUD,
      'setStatus',
      'resetPwd',
      'unlockLogin',
      'grantRole',
      'import',
      'export',
    ]),
  }),
  hidden('sysUserEdit', '编辑账号', '/system/user/edit/:id', '/system/user/edit/index', 2),
  page(
    'sysUserOpPassword',
    '操作密码',
    '/system/user/opPassword',
    '/system/user/opPassword/index',
    'LockOutlined',
    3,
    {
      isHide: true,
      enabled: true,
    },
  ),
  page('sysOrg', '机构管理', '/system/org', '/system/org/index', 'ApartmentOutlined', 4, {
    enabled: true,
    buttons: buttons('sysOrg', [...CRUD, 'setStatus', 'export']),
  }),
  page('sysPos', '职位管理', '/system/pos', '/system/pos/index', 'IdcardOutlined', 5, {
    enabled: true,
    buttons: buttons('sysPos', [...CRUD, 'setStatus', 'export']),
  }),
  page('sysUserGroup', '用户组管理', '/system/userGroup', '/system/userGroup/index', 'TeamOutlined', 6, {
    enabled: true,
    buttons: buttons('sysUserGroup', [...CRUD, 'setStatus', 'export']),
  }),
  page('sysRole', '角色管理', '/system/role', '/system/role/index', 'SafetyOutlined', 7, {
    enabled: true,
    buttons: buttons('sysRole', [...CRUD, 'setStatus', 'grantMenu', 'grantDataScope', 'export']),
  }),
  page('sysTenant', '租户管理', '/system/tenant', '/system/tenant/index', 'ClusterOutlined', 8, {
    enabled: true,
    buttons: buttons('sysTenant', [...CRUD, 'setStatus', 'grantMenu', 'resetPwd', 'export']),
  }),
  page('sysMenu', '菜单管理', '/system/menu', '/system/menu/index', 'MenuOutlined', 9, {
    enabled: true,
    buttons: buttons('sysMenu', [...CRUD, 'setStatus', 'export']),
  }),
  page('sysOpenAccess', '开放接口', '/system/openAccess', '/system/openAccess/index', 'KeyOutlined', 10, {
    enabled: true,
    buttons: buttons('sysOpenAccess', [...CRUD, 'setStatus', 'resetSecret', 'export']),
  }),
  page('sysOnlineUser', '在线用户', '/system/onlineUser', '/system/onlineUser/index', 'WifiOutlined', 11, {
    enabled: true,
    buttons: buttons('sysOnlineUser', ['page', 'forceOffline', 'export']),
  }),
]);

const logs = dir('sysLog', '日志管理', '/platform/log', 'FileSearchOutlined', 20, [
  page('sysLogVis', '访问日志', '/platform/log/vislog', '/platform/log/vislog/index', 'LoginOutlined', 1, {
    enabled: true,
    buttons: buttons('sysLogVis', ['page', 'detail', 'export', 'clear']),
  }),
  page('sysLogOp', '操作日志', '/platform/log/oplog', '/platform/log/oplog/index', 'FileTextOutlined', 2, {
    enabled: true,
    buttons: buttons('sysLogOp', ['page', 'detail', 'export', 'clear']),
  }),
  page('sysLogEx', '异常日志', '/platform/log/exlog', '/platform/log/exlog/index', 'BugOutlined', 3, {
    enabled: true,
    buttons: buttons('sysLogEx', ['page', 'detail', 'export', 'clear']),
  }),
  page('sysLogDiff', '差异日志', '/platform/log/difflog', '/platform/log/difflog/index', 'DiffOutlined', 4, {
    enabled: true,
    buttons: buttons('sysLogDiff', ['page', 'detail', 'export', 'clear']),
  }),
]);

const platform = dir('platform', '平台管理', '/platform', 'ControlOutlined', 60, [
  page('sysConfig', '参数配置', '/platform/config', '/platform/config/index', 'ToolOutlined', 1, {
    enabled: true,
    buttons: buttons('sysConfig', [...CRUD, 'batchDelete', 'batchUpdate', 'export']),
  }),
  page('sysDict', '字典管理', '/platform/dict', '/platform/dict/index', 'BookOutlined', 2, {
    enabled: true,
    buttons: [
      ...buttons('sysDictType', [...CRUD, 'setStatus'], '字典类型'),
      ...buttons('sysDictData', [...CRUD, 'setStatus'], '字典值'),
    ],
  }),
  page('sysRegion', '行政区划', '/platform/region', '/platform/region/index', 'EnvironmentOutlined', 3, {
    enabled: true,
    buttons: buttons('sysRegion', [...CRUD, 'sync']),
  }),
  page('sysNotice', '通知公告', '/platform/notice', '/platform/notice/index', 'NotificationOutlined', 4, {
    enabled: true,
    buttons: buttons('sysNotice', [...CRUD, 'publish', 'withdraw']),
  }),
  page('sysFile', '文件管理', '/platform/file', '/platform/file/index', 'FileOutlined', 5, {
    enabled: true,
    buttons: buttons('sysFile', [...CRUD, 'upload', 'download']),
  }),
  page('sysCache', '缓存管理', '/platform/cache', '/platform/cache/index', 'ThunderboltOutlined', 6, {
    enabled: true,
    buttons: buttons('sysCache', ['list', 'detail', 'delete']),
  }),
  page('sysServer', '服务监控', '/platform/server', '/platform/server/index', 'DashboardOutlined', 7, {
    enabled: true,
    buttons: buttons('sysServer', ['detail']),
  }),
  page('sysJob', '任务调度', '/platform/job', '/platform/job/index', 'ClockCircleOutlined', 8, {
    enabled: true,
    buttons: buttons('sysJob', [...CRUD, 'start', 'pause', 'runNow', 'cancel']),
  }),
  // SPEC §2: the API's /schedule page, embedded; reached from 任务调度, hidden from the menu.
  page(
    'jobDashboard',
    '任务看板',
    '/platform/job/dashboard',
    '/platform/job/dashboard/index',
    'FundOutlined',
    8,
    {
      enabled: true,
      isHide: true,
      isIframe: true,
      outLink: '/schedule',
    },
  ),
  // Title, logo, copyright and ICP line of the login page and footer: sys_web_* config rows, saved with
  // sysConfig:update (the same permission as on 参数配置).
  page('sysInfo', '系统信息', '/platform/sysInfo', '/platform/sysInfo/index', 'DesktopOutlined', 9, {
    enabled: true,
    buttons: buttons('sysConfig', ['update']),
  }),
  logs,
]);

const develop = dir('develop', '开发工具', '/develop', 'CodeOutlined', 70, [
  page('sysCodeGen', '代码生成', '/develop/codeGen', '/develop/codeGen/index', 'CodeSandboxOutlined', 1, {
    buttons: buttons('sysCodeGen', [...CRUD, 'generate']),
  }),
  page('sysDbDesigner', '库表设计', '/develop/database', '/develop/database/index', 'DatabaseOutlined', 2, {
    buttons: buttons('sysDbDesigner', ['list', 'add', 'update', 'delete']),
  }),
  page('sysFormDesigner', '表单设计器', '/develop/formDes', '/develop/formDes/index', 'BuildOutlined', 3, {
    buttons: buttons('sysFormDesigner', CRUD),
  }),
  page('sysPrint', '打印模板', '/develop/print', '/develop/print/index', 'PrinterOutlined', 4, {
    buttons: buttons('sysPrint', [...CRUD, 'preview']),
  }),
  hidden('sysPrintDesigner', '模板设计', '/develop/print/designer/:id', '/develop/print/designer/index', 5),
  page('sysPlugin', '插件管理', '/develop/plugin', '/develop/plugin/index', 'AppstoreAddOutlined', 6, {
    buttons: buttons('sysPlugin', CRUD),
  }),
]);

const dataTools = dir('dataTools', '数据工具', '/dataTools', 'ExperimentOutlined', 80, [
  page(
    'sysDataDecrypt',
    '数据解密',
    '/dataTools/dataDecrypt',
    '/dataTools/dataDecrypt/index',
    'UnlockOutlined',
    1,
    {
      buttons: buttons('sysDataDecrypt', ['page', 'decrypt']),
    },
  ),
  page(
    'sysTimedDecrypt',
    '定时解密',
    '/dataTools/timedDecrypt',
    '/dataTools/timedDecrypt/index',
    'FieldTimeOutlined',
    2,
    { buttons: buttons('sysTimedDecrypt', CRUD) },
  ),
  page(
    'sysTimedSql',
    '定时SQL',
    '/dataTools/timedSql',
    '/dataTools/timedSql/index',
    'ConsoleSqlOutlined',
    3,
    {
      buttons: buttons('sysTimedSql', [...CRUD, 'run']),
    },
  ),
  page(
    'sysCityTableSync',
    '市级表同步',
    '/dataTools/cityTableSync',
    '/dataTools/cityTableSync/index',
    'CloudSyncOutlined',
    4,
    { buttons: buttons('sysCityTableSync', ['page', 'sync']) },
  ),
  page(
    'sysTableDataNo',
    '表数据编号',
    '/dataTools/tableDataNo',
    '/dataTools/tableDataNo/index',
    'NumberOutlined',
    5,
    {
      buttons: buttons('sysTableDataNo', ['page', 'update']),
    },
  ),
  page(
    'sysTableRelation',
    '表关系',
    '/dataTools/tableRelation',
    '/dataTools/tableRelation/index',
    'NodeIndexOutlined',
    6,
    { buttons: buttons('sysTableRelation', CRUD) },
  ),
  page(
    'sysDataTransfer',
    '数据迁移',
    '/dataTools/dataTransfer',
    '/dataTools/dataTransfer/index',
    'SwapOutlined',
    7,
    {
      buttons: buttons('sysDataTransfer', ['page', 'run']),
    },
  ),
  page(
    'sysCompanyTool',
    '企业工具',
    '/dataTools/companyTool',
    '/dataTools/companyTool/index',
    'BankOutlined',
    8,
    {
      buttons: buttons('sysCompanyTool', ['page', 'run']),
    },
  ),
  page('sysOcr', '文字识别', '/dataTools/ocr', '/dataTools/ocr/index', 'ScanOutlined', 9, {
    buttons: buttons('sysOcr', ['recognize']),
  }),
  page(
    'sysWechatUser',
    '微信用户',
    '/dataTools/wechatUser',
    '/dataTools/wechatUser/index',
    'WechatOutlined',
    10,
    {
      buttons: buttons('sysWechatUser', ['page', 'delete']),
    },
  ),
  page('sysTag', '标签管理', '/dataTools/tag', '/dataTools/tag/index', 'TagsOutlined', 11, {
    buttons: buttons('sysTag', CRUD),
  }),
  page(
    'sysVisualDemo',
    '可视化示例',
    '/dataTools/visualDemo',
    '/dataTools/visualDemo/index',
    'BarChartOutlined',
    12,
    {
      buttons: buttons('sysVisualDemo', ['page']),
    },
  ),
]);

const help = dir('help', '帮助', '/help', 'QuestionCircleOutlined', 90, [
  page('about', '关于', '/about', '/about/index', 'InfoCircleOutlined', 1, {
    isKeepAlive: true,
    enabled: true,
  }),
  page('helpDoc', '帮助文档', '/help/doc', '/help/doc/index', 'ReadOutlined', 2),
]);

const userCenter = page(
  'sysUserCenter',
  '个人中心',
  '/system/userCenter',
  '/system/userCenter/index',
  'UserOutlined',
  100,
  {
    isHide: true,
    enabled: true,
  },
);

export const MENUS: SeedMenu[] = [
  home,
  enterprisePortal,
  reportCenter,
  taskCenter,
  dataResource,
  enterpriseService,
  system,
  platform,
  develop,
  dataTools,
  help,
  userCenter,
];
