import { CITY_ADMIN_ROLE_CODE, SPECIAL_ROLE_NAMES } from '@shuzhi/contracts/auth';
import type { SeedRole } from '../types.ts';

/**
 * Roles of the demo district: one per data scope (the Admin.NET `sys_*` codes of REFERENCE), the
 * special role names the product reacts to (SPEC §6, exactly `SPECIAL_ROLE_NAMES` of contracts/auth.ts),
 * the city admin (code `city_admin`) and the enterprise filler.
 *
 * Menu lists name directories and pages (a page's directory is listed with it) and button
 * permissions. Pages not built yet are seeded disabled, so granting them already only means a role
 * sees them the day they are switched on.
 */

/** What everybody has: the home page, the user centre and 帮助 → 关于. */
const BASE = ['home', 'dashboard:view', 'sysUserCenter', 'help', 'about', 'helpDoc'];

const REPORT_FILL = [
  'reportCenter',
  'diyReport',
  'diyReport:page',
  'diyReport:list',
  'diyReport:detail',
  'diyReport:add',
  'diyReport:update',
  'diyReport:submit',
  'diyFormTable',
  'diyLoadTable',
  'diyLoadScreen',
  'diyWord',
  'diyMyTask',
  'diyTaskDetail',
  'diyTask:zero',
  'formBoard',
  'formBoard:view',
  'diyWord:page',
  'diyWord:generate',
];

const REPORT_EXPORT = ['diyReport:export', 'formBoard:export'];

const REPORT_AUDIT = ['diyReportAudit', 'diyReport:audit'];

const REPORT_DESIGN = [
  'diyTable',
  'diyTable:page',
  'diyTable:list',
  'diyTable:detail',
  'diyTable:add',
  'diyTable:update',
  'diyTable:delete',
  'diyTable:design',
  'diyTable:publish',
  'diyTable:clone',
  'diyTable:export',
  'diyTable:import',
  'diyReportPeriod',
  'diyField',
  'diyReportRecycle',
  'diyRecycle:page',
  'diyRecycle:restore',
  'diyRecycle:purge',
  'diyTableClassify',
  'diyTableClassify:page',
  'diyTableClassify:list',
  'diyTableClassify:detail',
  'diyTableClassify:add',
  'diyTableClassify:update',
  'diyTableClassify:delete',
  'diyTableDesign',
  'diyReport:delete',
  'diyWord:add',
  'diyWord:delete',
];

const TASK_HANDLE = ['taskCenter', 'taskSchedule', 'taskTransfer'];
const TASK_MANAGE = [
  ...TASK_HANDLE,
  'taskCreate',
  'taskDistribute',
  'taskUrge',
  'taskAudit',
  'diyTask',
  'diyTask:page',
  'diyTask:add',
  'diyTask:distribute',
  'diyTask:transfer',
  'diyTask:urge',
  'diyTask:edit',
  'diyTask:close',
  'diyTask:delete',
  'diyTask:export',
  'diyTaskSchedule',
  'diyTaskSchedule:page',
  'diyTaskSchedule:add',
  'diyTaskSchedule:edit',
  'diyTaskSchedule:delete',
  'diyTask:review',
  'efficiencyBoard',
  'efficiencyBoard:view',
  'efficiencyBoard:export',
];

/** Publishing login-free links and QR codes of forms (docs/no-login.md). */
const NO_LOGIN_LINKS = [
  'diyNoLoginLink',
  'sysNoLoginLink:page',
  'sysNoLoginLink:add',
  'sysNoLoginLink:revoke',
];

/** The cockpit /jsc (docs/dashboards.md): leaders watch it; the city admin also sets it up. */
const COCKPIT_VIEW = ['cockpit', 'cockpit:view'];
const COCKPIT_CONFIG = [...COCKPIT_VIEW, 'cockpit:config'];
/** Public statements and custom scenes (docs/no-login.md). */
const PUBLIC_PAGES = [
  'diyStatement',
  'sysStatement:page',
  'sysStatement:add',
  'sysStatement:edit',
  'sysStatement:withdraw',
  'sysStatement:delete',
  'diyCustomScene',
  'sysScene:page',
  'sysScene:add',
  'sysScene:edit',
  'sysScene:withdraw',
  'sysScene:delete',
];

const DATA_RESOURCE_USE = [
  'dataResource',
  'dataResClassify',
  'dataResDatabase',
  'dataResFile',
  'dataResRestApi',
  'dataResApply',
];

/** Read-only look at users and orgs inside the role's data scope. */
const SYSTEM_VIEW = [
  'system',
  'sysUser',
  'sysUser:page',
  'sysUser:list',
  'sysUser:detail',
  'sysOrg',
  'sysOrg:page',
  'sysOrg:list',
  'sysOrg:detail',
  'sysPos',
  'sysPos:page',
  'sysPos:list',
];

export const ROLES: SeedRole[] = [
  {
    code: 'sys_admin',
    name: '系统管理员',
    dataScope: 1,
    menus: 'all',
    orderNo: 1,
    remark: '租户管理员：全部菜单，全部数据',
  },
  {
    code: 'sys_deptChild',
    name: '本部门及以下数据',
    dataScope: 2,
    menus: [...BASE, ...REPORT_FILL, ...REPORT_EXPORT, ...REPORT_AUDIT, ...TASK_MANAGE, ...SYSTEM_VIEW],
    orderNo: 2,
    remark: '数据范围：本部门及以下',
  },
  {
    code: 'sys_dept',
    name: '本部门数据',
    dataScope: 3,
    menus: [...BASE, ...REPORT_FILL, ...REPORT_EXPORT, ...TASK_HANDLE, ...SYSTEM_VIEW],
    orderNo: 3,
    remark: '数据范围：仅本部门',
  },
  {
    code: 'sys_self',
    name: '仅本人数据',
    dataScope: 4,
    menus: [...BASE, ...REPORT_FILL, ...TASK_HANDLE],
    orderNo: 4,
    remark: '数据范围：仅本人创建的数据',
  },
  {
    code: 'sys_define',
    name: '自定义数据',
    dataScope: 5,
    customOrgCodes: [
      '310101013',
      '310101013001',
      '310101013002',
      '310101018',
      '310101018001',
      '310101018002',
    ],
    menus: [...BASE, ...REPORT_FILL, ...REPORT_EXPORT, ...REPORT_AUDIT, ...TASK_MANAGE, ...SYSTEM_VIEW],
    orderNo: 5,
    remark: '数据范围：自定义（外滩街道、豫园街道及其社区）',
  },
  {
    code: 'area_leader',
    name: SPECIAL_ROLE_NAMES.areaLeader,
    dataScope: 2,
    menus: [
      ...BASE,
      ...REPORT_FILL,
      ...REPORT_EXPORT,
      ...REPORT_AUDIT,
      ...TASK_MANAGE,
      ...DATA_RESOURCE_USE,
      'dataResAudit',
      'enterpriseService',
      'creditRisk',
      'licence',
      ...COCKPIT_VIEW,
    ],
    orderNo: 10,
    remark: '区领导：本区全部机构（部门、街道、社区、网格、企业）',
  },
  {
    code: 'dept_town_leader',
    name: SPECIAL_ROLE_NAMES.deptTownLeader,
    dataScope: 2,
    menus: [
      ...BASE,
      ...REPORT_FILL,
      ...REPORT_EXPORT,
      ...REPORT_AUDIT,
      ...REPORT_DESIGN,
      ...TASK_MANAGE,
      ...DATA_RESOURCE_USE,
      'enterpriseService',
      'creditRisk',
      'licence',
      ...SYSTEM_VIEW,
      ...NO_LOGIN_LINKS,
      ...COCKPIT_VIEW,
      ...PUBLIC_PAGES,
    ],
    orderNo: 11,
    remark: '委办局和街道领导：本单位及下属机构',
  },
  {
    code: 'community_leader',
    name: SPECIAL_ROLE_NAMES.communityLeader,
    dataScope: 2,
    menus: [...BASE, ...REPORT_FILL, ...REPORT_EXPORT, ...REPORT_AUDIT, ...TASK_MANAGE, ...SYSTEM_VIEW],
    orderNo: 12,
    remark: '居委会书记、主任：本社区及其网格',
  },
  {
    code: 'staff',
    name: SPECIAL_ROLE_NAMES.staff,
    dataScope: 3,
    menus: [...BASE, ...REPORT_FILL, ...TASK_HANDLE],
    orderNo: 13,
    remark: '部门、街道、社区、网格工作人员：本单位数据',
  },
  {
    code: CITY_ADMIN_ROLE_CODE,
    name: '市级管理员',
    dataScope: 1,
    menus: [
      ...BASE,
      ...REPORT_FILL,
      ...REPORT_EXPORT,
      ...REPORT_AUDIT,
      ...REPORT_DESIGN,
      ...TASK_MANAGE,
      ...DATA_RESOURCE_USE,
      'dataResAudit',
      'dataSync',
      'dataTools',
      'sysCityTableSync',
      'sysCityTableSync:page',
      'sysCityTableSync:sync',
      'sysTableRelation',
      'sysTableRelation:page',
      'sysTableRelation:list',
      'sysTableRelation:detail',
      ...SYSTEM_VIEW,
      ...NO_LOGIN_LINKS,
      ...COCKPIT_CONFIG,
      ...PUBLIC_PAGES,
    ],
    orderNo: 20,
    remark: '市级管理员：下发市级报表、同步市级表，查看全部数据',
  },
  {
    code: 'enterprise_filler',
    name: '企业填报员',
    dataScope: 4,
    menus: [...BASE, 'enterprisePortal', ...REPORT_FILL],
    orderNo: 30,
    remark: '企业用户：填报本企业报表',
  },
];
