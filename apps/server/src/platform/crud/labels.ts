import type { Localized } from '@shuzhi/contracts/i18n';

/** Names of fields many resources share: export headers and D1006 messages. */
export const FIELD_LABELS = {
  code: { 'zh-CN': '编码', en: 'Code', 'zh-TW': '編碼' },
  name: { 'zh-CN': '名称', en: 'Name', 'zh-TW': '名稱' },
  orderNo: { 'zh-CN': '排序', en: 'Order', 'zh-TW': '排序' },
  status: { 'zh-CN': '状态', en: 'Status', 'zh-TW': '狀態' },
  sysFlag: { 'zh-CN': '系统内置', en: 'Built-in', 'zh-TW': '系統內建' },
  remark: { 'zh-CN': '备注', en: 'Remark', 'zh-TW': '備註' },
  createTime: { 'zh-CN': '创建时间', en: 'Created', 'zh-TW': '建立時間' },
  createUserName: { 'zh-CN': '创建人', en: 'Created by', 'zh-TW': '建立者' },
  updateTime: { 'zh-CN': '修改时间', en: 'Updated', 'zh-TW': '修改時間' },
  updateUserName: { 'zh-CN': '修改人', en: 'Updated by', 'zh-TW': '修改者' },
} as const satisfies Record<string, Localized>;
