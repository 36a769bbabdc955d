import type { Locale, Localized } from './i18n.ts';
import { own } from './own.ts';

/**
 * Labels of the built-in dictionaries in every UI language, keyed by dictionary type code, then item value.
 * The database keeps what was seeded (the zh-CN text); an item is shown in the reader's language only while
 * its stored label is still that seeded text, so a label an admin has edited shows exactly as typed (the rule
 * the menus follow for their titles). Every seeded item has an entry here (a server test checks it against
 * the seed data); a dictionary an admin adds has none and always shows as stored.
 */
export const DICT_ITEM_LABELS: Record<string, Record<string, Localized>> = {
  org_type: {
    district: { 'zh-CN': '区', en: 'District', 'zh-TW': '區' },
    street: { 'zh-CN': '街道', en: 'Street', 'zh-TW': '街道' },
    community: { 'zh-CN': '社区', en: 'Community', 'zh-TW': '社區' },
    grid: { 'zh-CN': '网格', en: 'Grid', 'zh-TW': '網格' },
    department: { 'zh-CN': '部门', en: 'Department', 'zh-TW': '部門' },
    enterprise: { 'zh-CN': '企业', en: 'Enterprise', 'zh-TW': '企業' },
  },
  sex: {
    '1': { 'zh-CN': '男', en: 'Male', 'zh-TW': '男' },
    '2': { 'zh-CN': '女', en: 'Female', 'zh-TW': '女' },
    '3': { 'zh-CN': '其他', en: 'Other', 'zh-TW': '其他' },
  },
  status: {
    '1': { 'zh-CN': '启用', en: 'Enabled', 'zh-TW': '啟用' },
    '2': { 'zh-CN': '停用', en: 'Disabled', 'zh-TW': '停用' },
  },
  yes_no: {
    '1': { 'zh-CN': '是', en: 'Yes', 'zh-TW': '是' },
    '2': { 'zh-CN': '否', en: 'No', 'zh-TW': '否' },
  },
  sys_flag: {
    '1': { 'zh-CN': '是', en: 'Yes', 'zh-TW': '是' },
    '2': { 'zh-CN': '否', en: 'No', 'zh-TW': '否' },
  },
  account_type: {
    '999': { 'zh-CN': '超级管理员', en: 'Super admin', 'zh-TW': '超級管理員' },
    '888': { 'zh-CN': '系统管理员', en: 'System admin', 'zh-TW': '系統管理員' },
    '777': { 'zh-CN': '普通账号', en: 'Normal user', 'zh-TW': '普通帳號' },
    '666': { 'zh-CN': '企业会员', en: 'Enterprise member', 'zh-TW': '企業會員' },
  },
  menu_type: {
    '1': { 'zh-CN': '目录', en: 'Directory', 'zh-TW': '目錄' },
    '2': { 'zh-CN': '菜单', en: 'Menu', 'zh-TW': '選單' },
    '3': { 'zh-CN': '按钮', en: 'Button', 'zh-TW': '按鈕' },
  },
  data_scope: {
    '1': { 'zh-CN': '全部数据', en: 'All data', 'zh-TW': '全部資料' },
    '2': { 'zh-CN': '本部门及以下数据', en: 'Own org and below', 'zh-TW': '本部門及以下資料' },
    '3': { 'zh-CN': '本部门数据', en: 'Own org', 'zh-TW': '本部門資料' },
    '4': { 'zh-CN': '仅本人数据', en: 'Self only', 'zh-TW': '僅本人資料' },
    '5': { 'zh-CN': '自定义数据', en: 'Custom orgs', 'zh-TW': '自訂資料' },
  },
  notice_type: {
    '1': { 'zh-CN': '通知', en: 'Notice', 'zh-TW': '通知' },
    '2': { 'zh-CN': '公告', en: 'Announcement', 'zh-TW': '公告' },
  },
  notice_status: {
    '0': { 'zh-CN': '草稿', en: 'Draft', 'zh-TW': '草稿' },
    '1': { 'zh-CN': '已发布', en: 'Published', 'zh-TW': '已發布' },
    '2': { 'zh-CN': '已撤回', en: 'Withdrawn', 'zh-TW': '已撤回' },
    '3': { 'zh-CN': '定时发布', en: 'Scheduled', 'zh-TW': '定時發布' },
  },
  config_group: {
    Default: { 'zh-CN': '默认', en: 'Default', 'zh-TW': '預設' },
    Login: { 'zh-CN': '登录与会话', en: 'Sign-in and sessions', 'zh-TW': '登入與工作階段' },
    Security: { 'zh-CN': '安全', en: 'Security', 'zh-TW': '安全' },
    Web: { 'zh-CN': '站点', en: 'Site', 'zh-TW': '網站' },
    File: { 'zh-CN': '文件', en: 'Files', 'zh-TW': '檔案' },
  },
  // Language names stay in their own language whatever the UI language is.
  language: {
    'zh-CN': { 'zh-CN': '简体中文', en: '简体中文', 'zh-TW': '简体中文' },
    en: { 'zh-CN': 'English', en: 'English', 'zh-TW': 'English' },
    'zh-TW': { 'zh-CN': '繁體中文', en: '繁體中文', 'zh-TW': '繁體中文' },
  },
};

/** Names of the built-in dictionary types, for the administration screen; same rule as the item labels. */
export const DICT_TYPE_NAMES: Record<string, Localized> = {
  org_type: { 'zh-CN': '机构类型', en: 'Org types', 'zh-TW': '機構類型' },
  sex: { 'zh-CN': '性别', en: 'Gender', 'zh-TW': '性別' },
  status: { 'zh-CN': '状态', en: 'Status', 'zh-TW': '狀態' },
  yes_no: { 'zh-CN': '是否', en: 'Yes / no', 'zh-TW': '是否' },
  sys_flag: { 'zh-CN': '系统内置', en: 'Built-in', 'zh-TW': '系統內建' },
  account_type: { 'zh-CN': '账号类型', en: 'Account types', 'zh-TW': '帳號類型' },
  menu_type: { 'zh-CN': '菜单类型', en: 'Menu types', 'zh-TW': '選單類型' },
  data_scope: { 'zh-CN': '数据范围', en: 'Data scopes', 'zh-TW': '資料範圍' },
  notice_type: { 'zh-CN': '通知公告类型', en: 'Notice types', 'zh-TW': '通知公告類型' },
  notice_status: { 'zh-CN': '通知公告状态', en: 'Notice statuses', 'zh-TW': '通知公告狀態' },
  config_group: { 'zh-CN': '参数分组', en: 'Parameter groups', 'zh-TW': '參數分組' },
  language: { 'zh-CN': '界面语言', en: 'UI languages', 'zh-TW': '介面語言' },
};

/**
 * The label to show for a stored item: its translation while the stored label is the seeded zh-CN text,
 * otherwise the stored label as the admin typed it.
 */
export function dictItemLabel(typeCode: string, value: string, stored: string, locale: Locale): string {
  const items = own(DICT_ITEM_LABELS, typeCode);
  const known = items ? own(items, value) : undefined;
  return known && known['zh-CN'] === stored ? known[locale] : stored;
}

/** The name to show for a stored dictionary type, by the same rule. */
export function dictTypeName(typeCode: string, stored: string, locale: Locale): string {
  const known = own(DICT_TYPE_NAMES, typeCode);
  return known && known['zh-CN'] === stored ? known[locale] : stored;
}
