import type { SeedDictType } from '../types.ts';

/**
 * Dictionaries the shell and the admin pages read; all are built in (sysFlag 1: not deletable, code fixed). Values are strings; `tagType` is the colour of the
 * antd Tag a list shows for the value (success, processing, warning, error, default).
 */
export const DICTS: SeedDictType[] = [
  {
    code: 'org_type',
    name: '机构类型',
    remark: '值即机构的 type 字段',
    items: [
      { label: '区', value: 'district', tagType: 'processing', orderNo: 1 },
      { label: '街道', value: 'street', tagType: 'success', orderNo: 2 },
      { label: '社区', value: 'community', tagType: 'warning', orderNo: 3 },
      { label: '网格', value: 'grid', tagType: 'default', orderNo: 4 },
      { label: '部门', value: 'department', tagType: 'processing', orderNo: 5 },
      { label: '企业', value: 'enterprise', tagType: 'default', orderNo: 6 },
    ],
  },
  {
    code: 'sex',
    name: '性别',
    items: [
      { label: '男', value: '1', orderNo: 1 },
      { label: '女', value: '2', orderNo: 2 },
      { label: '其他', value: '3', orderNo: 3 },
    ],
  },
  {
    code: 'status',
    name: '状态',
    remark: '通用启用/停用状态',
    items: [
      { label: '启用', value: '1', tagType: 'success', orderNo: 1 },
      { label: '停用', value: '2', tagType: 'error', orderNo: 2 },
    ],
  },
  {
    code: 'yes_no',
    name: '是否',
    items: [
      { label: '是', value: '1', tagType: 'success', orderNo: 1 },
      { label: '否', value: '2', tagType: 'default', orderNo: 2 },
    ],
  },
  {
    code: 'sys_flag',
    name: '系统内置',
    remark: '内置的记录不允许删除',
    items: [
      { label: '是', value: '1', tagType: 'warning', orderNo: 1 },
      { label: '否', value: '2', tagType: 'default', orderNo: 2 },
    ],
  },
  {
    code: 'account_type',
    name: '账号类型',
    items: [
      { label: '超级管理员', value: '999', tagType: 'error', orderNo: 1 },
      { label: '系统管理员', value: '888', tagType: 'warning', orderNo: 2 },
      { label: '普通账号', value: '777', tagType: 'processing', orderNo: 3 },
      { label: '企业会员', value: '666', tagType: 'default', orderNo: 4 },
    ],
  },
  {
    code: 'menu_type',
    name: '菜单类型',
    items: [
      { label: '目录', value: '1', tagType: 'warning', orderNo: 1 },
      { label: '菜单', value: '2', tagType: 'success', orderNo: 2 },
      { label: '按钮', value: '3', tagType: 'default', orderNo: 3 },
    ],
  },
  {
    code: 'data_scope',
    name: '数据范围',
    remark: '只有超级管理员可以授予“全部数据”',
    items: [
      { label: '全部数据', value: '1', tagType: 'error', orderNo: 1 },
      { label: '本部门及以下数据', value: '2', tagType: 'warning', orderNo: 2 },
      { label: '本部门数据', value: '3', tagType: 'processing', orderNo: 3 },
      { label: '仅本人数据', value: '4', tagType: 'success', orderNo: 4 },
      { label: '自定义数据', value: '5', tagType: 'default', orderNo: 5 },
    ],
  },
  {
    code: 'notice_type',
    name: '通知公告类型',
    items: [
      { label: '通知', value: '1', tagType: 'processing', orderNo: 1 },
      { label: '公告', value: '2', tagType: 'warning', orderNo: 2 },
    ],
  },
  {
    code: 'notice_status',
    name: '通知公告状态',
    items: [
      { label: '草稿', value: '0', tagType: 'default', orderNo: 1 },
      { label: '已发布', value: '1', tagType: 'success', orderNo: 2 },
      { label: '已撤回', value: '2', tagType: 'error', orderNo: 3 },
      { label: '定时发布', value: '3', tagType: 'processing', orderNo: 4 },
    ],
  },
  {
    code: 'config_group',
    name: '参数分组',
    remark: '系统参数的 groupCode',
    items: [
      { label: '默认', value: 'Default', orderNo: 1 },
      { label: '登录与会话', value: 'Login', orderNo: 2 },
      { label: '安全', value: 'Security', orderNo: 3 },
      { label: '站点', value: 'Web', orderNo: 4 },
      { label: '文件', value: 'File', orderNo: 5 },
    ],
  },
  {
    code: 'language',
    name: '界面语言',
    items: [
      { label: '简体中文', value: 'zh-CN', orderNo: 1 },
      { label: 'English', value: 'en', orderNo: 2 },
      { label: '繁體中文', value: 'zh-TW', orderNo: 3 },
    ],
  },
];
