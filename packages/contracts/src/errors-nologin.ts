import type { Localized } from './i18n.ts';

/**
 * The login-free links' (N) part of the business error catalogue (docs/no-login.md); `BUSINESS_ERRORS` in
 * errors.ts holds them with the rest. Each refusal of a code or token has its own code.
 */
export const NO_LOGIN_ERRORS = {
  N1000: {
    'zh-CN': '链接无效或已被篡改',
    en: 'The link is not valid or has been tampered with',
    'zh-TW': '連結無效或已被竄改',
  },
  N1001: { 'zh-CN': '链接已过期', en: 'The link has expired', 'zh-TW': '連結已過期' },
  N1002: { 'zh-CN': '链接已被撤销', en: 'The link has been revoked', 'zh-TW': '連結已被撤銷' },
  N1003: {
    'zh-CN': '链接的使用次数已用完',
    en: 'The link has been used as many times as allowed',
    'zh-TW': '連結的使用次數已用完',
  },
  N1004: {
    'zh-CN': '链接不允许此操作',
    en: 'The link does not allow this',
    'zh-TW': '連結不允許此操作',
  },
  N1005: {
    'zh-CN': '链接不属于该租户',
    en: 'The link belongs to another tenant',
    'zh-TW': '連結不屬於該租戶',
  },
  N1006: {
    'zh-CN': '访问凭证无效或已过期，请重新打开链接',
    en: 'The access token is not valid or has expired; open the link again',
    'zh-TW': '存取憑證無效或已過期，請重新開啟連結',
  },
  N1007: {
    'zh-CN': '该凭证已提交过，请勿重复提交',
    en: 'This token has already been used to submit; it cannot be replayed',
    'zh-TW': '該憑證已提交過，請勿重複提交',
  },
  N1008: { 'zh-CN': '链接不存在', en: 'The link does not exist', 'zh-TW': '連結不存在' },
  N1009: {
    'zh-CN': '该链接访问过于频繁，请稍后重试',
    en: 'This link is being used too often; try again shortly',
    'zh-TW': '該連結存取過於頻繁，請稍後重試',
  },
  N1010: {
    'zh-CN': '表单暂不可用（未发布、已停用或已删除）',
    en: 'The form is not available (not published, disabled or deleted)',
    'zh-TW': '表單暫不可用（未發佈、已停用或已刪除）',
  },
  N1011: {
    'zh-CN': '您没有该表单的权限，不能为其发布此链接',
    en: 'You may not publish this link: you lack this right on the form',
    'zh-TW': '您沒有該表單的權限，不能為其發佈此連結',
  },
  // Public statements and custom scenes (issue 22 §2).
  N1020: { 'zh-CN': '该公示已撤回', en: 'This statement has been withdrawn', 'zh-TW': '該公示已撤回' },
  N1021: { 'zh-CN': '该公示已过期', en: 'This statement has expired', 'zh-TW': '該公示已過期' },
  N1022: { 'zh-CN': '该场景已下线', en: 'This scene has been withdrawn', 'zh-TW': '該場景已下線' },
  N1023: { 'zh-CN': '该场景已过期', en: 'This scene has expired', 'zh-TW': '該場景已過期' },
  N1024: { 'zh-CN': '公示不存在', en: 'The statement does not exist', 'zh-TW': '公示不存在' },
  N1025: { 'zh-CN': '场景不存在', en: 'The scene does not exist', 'zh-TW': '場景不存在' },
  N1026: {
    'zh-CN': '公开字段不属于该表单：{fields}',
    en: 'These public fields are not in the form: {fields}',
    'zh-TW': '公開欄位不屬於該表單：{fields}',
  },
  N1027: {
    'zh-CN': '场景条目「{title}」的填报链接不存在、已失效或不是填报链接',
    en: 'The entry "{title}": its link does not exist, is no longer active or is not a fill link',
    'zh-TW': '場景條目「{title}」的填報連結不存在、已失效或不是填報連結',
  },
  N1028: {
    'zh-CN': '场景条目「{title}」的公示不存在或已失效',
    en: 'The entry "{title}": its statement does not exist or is no longer active',
    'zh-TW': '場景條目「{title}」的公示不存在或已失效',
  },
  N1029: {
    'zh-CN': '横幅图片不存在或不是图片（png、jpg、gif、webp）',
    en: 'The banner does not exist or is not an image (png, jpg, gif, webp)',
    'zh-TW': '橫幅圖片不存在或不是圖片（png、jpg、gif、webp）',
  },
  N1030: {
    'zh-CN': '您没有该表单的查询权限，不能公示其数据',
    en: 'You may not publish this statement: you cannot query the form',
    'zh-TW': '您沒有該表單的查詢權限，不能公示其資料',
  },
  N1031: {
    'zh-CN': '只能公示已提交或已审核的记录',
    en: 'Only submitted or approved records can be published',
    'zh-TW': '只能公示已提交或已審核的記錄',
  },
  N1032: {
    'zh-CN': '已撤回或已过期，不能再修改',
    en: 'It has been withdrawn or has expired and can no longer be changed',
    'zh-TW': '已撤回或已過期，不能再修改',
  },
  N1040: {
    'zh-CN': '提交过于频繁，请输入验证码后再提交',
    en: 'Too many submissions: enter the captcha and submit again',
    'zh-TW': '提交過於頻繁，請輸入驗證碼後再提交',
  },
  N1041: {
    'zh-CN': '验证码错误或已失效，请重新输入',
    en: 'The captcha is wrong or has expired: enter the new one',
    'zh-TW': '驗證碼錯誤或已失效，請重新輸入',
  },
} as const satisfies Record<string, Localized>;
