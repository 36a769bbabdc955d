import { z } from 'zod';
import type { Localized } from './i18n.ts';

/**
 * Constant lists served by `GET /api/sysConst/list` and `/api/sysConst/data/{typeName}`. Labels are
 * localized; the server answers in the request's language.
 */
export type ConstItem = { code: number | string; name: Localized };

export const CONSTANTS = {
  accountType: [
    { code: 999, name: { 'zh-CN': '超级管理员', en: 'Super admin', 'zh-TW': '超級管理員' } },
    { code: 888, name: { 'zh-CN': '系统管理员', en: 'System admin', 'zh-TW': '系統管理員' } },
    { code: 777, name: { 'zh-CN': '普通账号', en: 'Normal user', 'zh-TW': '普通帳號' } },
    { code: 666, name: { 'zh-CN': '会员', en: 'Member', 'zh-TW': '會員' } },
  ],
  menuType: [
    { code: 1, name: { 'zh-CN': '目录', en: 'Directory', 'zh-TW': '目錄' } },
    { code: 2, name: { 'zh-CN': '菜单', en: 'Menu', 'zh-TW': '選單' } },
    { code: 3, name: { 'zh-CN': '按钮', en: 'Button', 'zh-TW': '按鈕' } },
  ],
  dataScope: [
    { code: 1, name: { 'zh-CN': '全部数据', en: 'All data', 'zh-TW': '全部資料' } },
    { code: 2, name: { 'zh-CN': '本部门及以下数据', en: 'Own org and below', 'zh-TW': '本部門及以下資料' } },
    { code: 3, name: { 'zh-CN': '本部门数据', en: 'Own org', 'zh-TW': '本部門資料' } },
    { code: 4, name: { 'zh-CN': '仅本人数据', en: 'Self only', 'zh-TW': '僅本人資料' } },
    { code: 5, name: { 'zh-CN': '自定义数据', en: 'Custom orgs', 'zh-TW': '自訂資料' } },
  ],
  status: [
    { code: 1, name: { 'zh-CN': '启用', en: 'Enabled', 'zh-TW': '啟用' } },
    { code: 2, name: { 'zh-CN': '停用', en: 'Disabled', 'zh-TW': '停用' } },
  ],
  sysFlag: [
    { code: 1, name: { 'zh-CN': '是', en: 'Yes', 'zh-TW': '是' } },
    { code: 2, name: { 'zh-CN': '否', en: 'No', 'zh-TW': '否' } },
  ],
  gender: [
    { code: 1, name: { 'zh-CN': '男', en: 'Male', 'zh-TW': '男' } },
    { code: 2, name: { 'zh-CN': '女', en: 'Female', 'zh-TW': '女' } },
  ],
} as const satisfies Record<string, readonly ConstItem[]>;

export type ConstTypeName = keyof typeof CONSTANTS;

export const CONST_TYPE_NAMES: Record<ConstTypeName, Localized> = {
  accountType: { 'zh-CN': '账号类型', en: 'Account type', 'zh-TW': '帳號類型' },
  menuType: { 'zh-CN': '菜单类型', en: 'Menu type', 'zh-TW': '選單類型' },
  dataScope: { 'zh-CN': '数据范围', en: 'Data scope', 'zh-TW': '資料範圍' },
  status: { 'zh-CN': '状态', en: 'Status', 'zh-TW': '狀態' },
  sysFlag: { 'zh-CN': '系统内置', en: 'Built-in', 'zh-TW': '系統內建' },
  gender: { 'zh-CN': '性别', en: 'Gender', 'zh-TW': '性別' },
};

/** One entry of `sysConst/list` (`code` is the type name) or of `sysConst/data/{typeName}` (`code` is the value). */
export const constOutputSchema = z.object({ name: z.string(), code: z.union([z.string(), z.number()]) });
export type ConstOutput = z.infer<typeof constOutputSchema>;

export const constTypeParamsSchema = z.object({ typeName: z.string().min(1).max(64) });
