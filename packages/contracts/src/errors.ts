import { DIY_ERRORS } from './errors-diy.ts';
import { NO_LOGIN_ERRORS } from './errors-nologin.ts';
import { QUERY_ERRORS } from './errors-query.ts';
import { WORD_ERRORS } from './errors-word.ts';
import type { Localized } from './i18n.ts';

/**
 * Business error catalogue. The envelope carries the code itself (`"D0008"`) and the message in the
 * request's language; HTTP status stays 200 so that every client shows the message.
 */
export const BUSINESS_ERRORS = {
  D0008: {
    'zh-CN': '验证码错误',
    en: 'The verification code is wrong or has expired',
    'zh-TW': '驗證碼錯誤',
  },
  D0009: { 'zh-CN': '账号不存在', en: 'The account does not exist', 'zh-TW': '帳號不存在' },
  D0010: {
    'zh-CN': '密码解密失败',
    en: 'The password could not be decrypted',
    'zh-TW': '密碼解密失敗',
  },
  D1000: { 'zh-CN': '密码不正确', en: 'The password is incorrect', 'zh-TW': '密碼不正確' },
  D1001: { 'zh-CN': '不能删除自己', en: 'You cannot delete yourself', 'zh-TW': '不能刪除自己' },
  D1003: {
    'zh-CN': '不能禁用或修改自己的账号状态',
    en: 'You cannot disable your own account',
    'zh-TW': '不能停用或修改自己的帳號狀態',
  },
  D1005: {
    'zh-CN': '禁止操作超级管理员',
    en: 'The super admin cannot be changed here',
    'zh-TW': '禁止操作超級管理員',
  },
  D1007: {
    'zh-CN': '不能授予超出自己权限范围的菜单或按钮',
    en: 'You cannot grant menus or buttons you do not hold yourself',
    'zh-TW': '不能授予超出自己權限範圍的選單或按鈕',
  },
  D1008: {
    'zh-CN': '该角色下仍有用户，不能删除',
    en: 'Users still hold this role; it cannot be deleted',
    'zh-TW': '該角色下仍有使用者，不能刪除',
  },
  D1009: {
    'zh-CN': '授权的机构超出了您的数据范围',
    en: 'The organisations granted lie outside your own data scope',
    'zh-TW': '授權的機構超出了您的資料範圍',
  },
  D1010: {
    'zh-CN': '导入文件无法读取，请使用下载的模板',
    en: 'The import file cannot be read; please use the downloaded template',
    'zh-TW': '匯入檔案無法讀取，請使用下載的範本',
  },
  D1011: {
    'zh-CN': '操作密码不正确',
    en: 'The operation password is incorrect',
    'zh-TW': '操作密碼不正確',
  },
  D1012: {
    'zh-CN': '尚未设置操作密码，请先在个人中心设置',
    en: 'No operation password is set yet; set one in the user centre first',
    'zh-TW': '尚未設定操作密碼，請先在個人中心設定',
  },
  D1013: {
    'zh-CN': '短信验证码错误或已过期',
    en: 'The SMS code is wrong or has expired',
    'zh-TW': '簡訊驗證碼錯誤或已過期',
  },
  D1014: {
    'zh-CN': '短信发送过于频繁，请{seconds}秒后再试',
    en: 'Too many SMS requests; try again in {seconds} seconds',
    'zh-TW': '簡訊發送過於頻繁，請{seconds}秒後再試',
  },
  D1015: {
    'zh-CN': '该手机号未绑定账号',
    en: 'No account is bound to this mobile number',
    'zh-TW': '該手機號碼未綁定帳號',
  },
  D1018: {
    'zh-CN': '二维码已失效，请刷新',
    en: 'The QR code has expired; please refresh it',
    'zh-TW': '二維碼已失效，請重新整理',
  },
  D1020: {
    'zh-CN': '第三方身份认证失败',
    en: 'The identity provider did not confirm this sign-in',
    'zh-TW': '第三方身分認證失敗',
  },
  D1021: {
    'zh-CN': '签名无效',
    en: 'The signature is not valid',
    'zh-TW': '簽章無效',
  },
  D1022: {
    'zh-CN': '时间戳已过期',
    en: 'The timestamp is outside the allowed window',
    'zh-TW': '時間戳記已過期',
  },
  D1023: {
    'zh-CN': '请求已被使用（nonce 重复）',
    en: 'This request has already been used (repeated nonce)',
    'zh-TW': '請求已被使用（nonce 重複）',
  },
  D1024: {
    'zh-CN': '访问密钥不存在或已禁用',
    en: 'The access key does not exist or is disabled',
    'zh-TW': '存取金鑰不存在或已停用',
  },
  D1025: {
    'zh-CN': '该账号已在其他地方登录',
    en: 'This account has signed in elsewhere',
    'zh-TW': '該帳號已在其他地方登入',
  },
  D1026: {
    'zh-CN': '接口文档已关闭',
    en: 'The API documentation is switched off',
    'zh-TW': '介面文件已關閉',
  },
  D1002: { 'zh-CN': '记录不存在', en: 'The record does not exist', 'zh-TW': '記錄不存在' },
  D1006: {
    'zh-CN': '记录已存在：{field}“{value}”',
    en: '{field} "{value}" already exists',
    'zh-TW': '記錄已存在：{field}「{value}」',
  },
  D1016: {
    'zh-CN': '非超级管理员禁止授予全部数据范围',
    en: 'Only a super admin may grant the "all data" scope',
    'zh-TW': '非超級管理員禁止授予全部資料範圍',
  },
  D1017: { 'zh-CN': '账号已冻结', en: 'The account is frozen', 'zh-TW': '帳號已凍結' },
  D1019: {
    'zh-CN': '租户管理员角色不能删除、停用或修改编码',
    en: 'The tenant administrator role cannot be deleted, disabled or re-coded',
    'zh-TW': '租戶管理員角色不能刪除、停用或修改編碼',
  },
  D1027: {
    'zh-CN': '密码错误次数过多，账号已锁定，请半小时后重试！',
    en: 'Too many wrong passwords: the account is locked, try again in half an hour!',
    'zh-TW': '密碼錯誤次數過多，帳號已鎖定，請半小時後重試！',
  },
  D1028: {
    'zh-CN': '密码长度须为6到16个字符',
    en: 'The password must be 6 to 16 characters long',
    'zh-TW': '密碼長度須為6到16個字元',
  },
  D1029: {
    'zh-CN': '密码须为12到16位，并包含字母、数字和符号(~!@#$%^&.*)',
    en: 'The password must be 12 to 16 characters and mix letters, digits and symbols (~!@#$%^&.*)',
    'zh-TW': '密碼須為12到16位，並包含字母、數字和符號(~!@#$%^&.*)',
  },
  D1030: {
    'zh-CN': '刷新令牌无效或已使用',
    en: 'The refresh token is invalid or has already been used',
    'zh-TW': '重新整理權杖無效或已使用',
  },
  D1031: {
    'zh-CN': '短信发送失败，请稍后再试',
    en: 'The SMS could not be sent; please try again later',
    'zh-TW': '簡訊發送失敗，請稍後再試',
  },
  D1032: {
    'zh-CN': '不能强制自己下线',
    en: 'You cannot force yourself offline',
    'zh-TW': '不能強制自己下線',
  },
  D1033: {
    'zh-CN': '操作密码错误次数过多，请半小时后重试',
    en: 'Too many wrong operation passwords; please try again in half an hour',
    'zh-TW': '操作密碼錯誤次數過多，請半小時後重試',
  },
  D1034: {
    'zh-CN': '请先修改初始密码',
    en: 'Change your initial password first',
    'zh-TW': '請先修改初始密碼',
  },
  D1035: {
    'zh-CN': '密码已过期，请先修改密码',
    en: 'Your password has expired; change it first',
    'zh-TW': '密碼已過期，請先修改密碼',
  },
  D2000: {
    'zh-CN': '该机构下有下级机构，不能删除',
    en: 'This organisation has sub-organisations and cannot be deleted',
    'zh-TW': '該機構下有下級機構，不能刪除',
  },
  D2001: {
    'zh-CN': '该机构下有用户，不能删除',
    en: 'Users belong to this organisation; it cannot be deleted',
    'zh-TW': '該機構下有使用者，不能刪除',
  },
  D2002: {
    'zh-CN': '上级不能是自己或自己的下级',
    en: 'The parent cannot be the record itself or one of its descendants',
    'zh-TW': '上級不能是自己或自己的下級',
  },
  D2003: {
    'zh-CN': '没有该机构的数据权限',
    en: 'This organisation lies outside your data scope',
    'zh-TW': '沒有該機構的資料權限',
  },
  D2004: {
    'zh-CN': '该职位下有用户，不能删除',
    en: 'Users hold this position; it cannot be deleted',
    'zh-TW': '該職位下有使用者，不能刪除',
  },
  D4000: {
    'zh-CN': '该菜单下有子菜单，不能删除',
    en: 'This menu has children and cannot be deleted',
    'zh-TW': '該選單下有子選單，不能刪除',
  },
  D4001: {
    'zh-CN': '权限标识不在权限目录中：{permission}',
    en: 'The permission is not in the catalogue: {permission}',
    'zh-TW': '權限標識不在權限目錄中：{permission}',
  },
  D4002: {
    'zh-CN': '菜单类型与上级不匹配',
    en: 'This menu type cannot sit under that parent',
    'zh-TW': '選單類型與上級不匹配',
  },
  D9001: {
    'zh-CN': '系统参数不允许删除',
    en: 'Built-in settings cannot be deleted',
    'zh-TW': '系統參數不允許刪除',
  },
  D9002: {
    'zh-CN': '内置记录的编码和内置标志不允许修改',
    en: 'The code and the built-in flag of a built-in record cannot be changed',
    'zh-TW': '內建記錄的編碼和內建標誌不允許修改',
  },
  D9003: {
    'zh-CN': '系统内置字典不允许删除',
    en: 'Built-in dictionaries cannot be deleted',
    'zh-TW': '系統內建字典不允許刪除',
  },
  D9010: {
    'zh-CN': '该行政区划下有下级区划，不允许删除',
    en: 'This region has subregions and cannot be deleted',
    'zh-TW': '該行政區劃下有下級區劃，不允許刪除',
  },
  D9011: {
    'zh-CN': '行政区划最多五级，不能在村（社区）级下再增加',
    en: 'Regions have at most five levels; nothing can be added under a village or community',
    'zh-TW': '行政區劃最多五級，不能在村（社區）級下再增加',
  },
  D9012: {
    'zh-CN': '行政区划同步正在进行，请稍后再试',
    en: 'A region sync is already running, please try again later',
    'zh-TW': '行政區劃同步正在進行，請稍後再試',
  },
  D8000: {
    'zh-CN': '请选择要上传的文件',
    en: 'Please choose a file to upload',
    'zh-TW': '請選擇要上傳的檔案',
  },
  D8001: {
    'zh-CN': '文件类型不允许，仅支持：{types}',
    en: 'This file type is not allowed; allowed: {types}',
    'zh-TW': '檔案類型不允許，僅支援：{types}',
  },
  D8002: {
    'zh-CN': '文件大小不能超过 {max}',
    en: 'The file must not be larger than {max}',
    'zh-TW': '檔案大小不能超過 {max}',
  },
  D8003: {
    'zh-CN': '文件名不能包含路径',
    en: 'The file name must not contain folders',
    'zh-TW': '檔案名稱不能包含路徑',
  },
  D8004: {
    'zh-CN': '该文件正被用作头像或签名，不能删除',
    en: 'The file is in use as an avatar or signature and cannot be deleted',
    'zh-TW': '該檔案正被用作頭像或簽名，不能刪除',
  },
  D8005: {
    'zh-CN': '文件内容与扩展名“{suffix}”不符',
    en: 'The file content does not match its extension "{suffix}"',
    'zh-TW': '檔案內容與副檔名「{suffix}」不符',
  },
  D7000: {
    'zh-CN': '已发布的通知不能修改，请先撤回',
    en: 'A published notice cannot be edited; withdraw it first',
    'zh-TW': '已發佈的通知不能修改，請先撤回',
  },
  D7001: {
    'zh-CN': '只有已发布的通知可以撤回',
    en: 'Only a published notice can be withdrawn',
    'zh-TW': '只有已發佈的通知可以撤回',
  },
  D7002: {
    'zh-CN': '定时发布时间须晚于当前时间',
    en: 'The scheduled publishing time must lie in the future',
    'zh-TW': '定時發佈時間須晚於目前時間',
  },
  D7003: {
    'zh-CN': '请选择接收对象',
    en: 'Please choose who receives the notice',
    'zh-TW': '請選擇接收對象',
  },
  D7004: {
    'zh-CN': '通知已发布',
    en: 'The notice is already published',
    'zh-TW': '通知已發佈',
  },
  J1000: {
    'zh-CN': 'Cron 表达式无效：{reason}',
    en: 'The cron expression is not valid: {reason}',
    'zh-TW': 'Cron 運算式無效：{reason}',
  },
  J1001: {
    'zh-CN': '内置作业不能删除',
    en: 'Built-in jobs cannot be deleted',
    'zh-TW': '內建作業不能刪除',
  },
  J1002: {
    'zh-CN': '该作业没有正在运行的实例',
    en: 'The job is not running',
    'zh-TW': '該作業沒有正在執行的實例',
  },
  J1003: {
    'zh-CN': '该作业正在运行，不允许并发执行',
    en: 'The job is already running and does not allow concurrent runs',
    'zh-TW': '該作業正在執行，不允許並行執行',
  },
  J1004: {
    'zh-CN': '内置作业处理程序不存在：{handler}',
    en: 'No such built-in job handler: {handler}',
    'zh-TW': '內建作業處理程式不存在：{handler}',
  },
  J1005: {
    'zh-CN': 'HTTP 作业地址须以 http:// 或 https:// 开头',
    en: 'The address of an HTTP job must start with http:// or https://',
    'zh-TW': 'HTTP 作業位址須以 http:// 或 https:// 開頭',
  },
  J1006: {
    'zh-CN': '结束时间须晚于开始时间',
    en: 'The end time must be later than the start time',
    'zh-TW': '結束時間須晚於開始時間',
  },
  Z1000: {
    'zh-CN': '默认租户不能删除或停用',
    en: 'The default tenant cannot be deleted or disabled',
    'zh-TW': '預設租戶不能刪除或停用',
  },
  Z1001: {
    'zh-CN': '租户下仍有用户，不能删除',
    en: 'The tenant still has users and cannot be deleted',
    'zh-TW': '租戶下仍有使用者，不能刪除',
  },
  Z1003: { 'zh-CN': '租户已禁用', en: 'The tenant is disabled', 'zh-TW': '租戶已停用' },
  Z1004: {
    'zh-CN': '默认租户的编码不能修改',
    en: "The default tenant's code cannot be changed",
    'zh-TW': '預設租戶的編碼不能修改',
  },
  ...DIY_ERRORS,
  ...NO_LOGIN_ERRORS,
  ...QUERY_ERRORS,
  ...WORD_ERRORS,
} as const satisfies Record<string, Localized>;

export type BusinessErrorCode = keyof typeof BUSINESS_ERRORS;

/** Platform outcomes: the envelope code equals the HTTP status. */
export const PLATFORM_ERRORS = {
  400: { 'zh-CN': '请求参数有误', en: 'The request is not valid', 'zh-TW': '請求參數有誤' },
  401: {
    'zh-CN': '401 登录已过期，请重新登录',
    en: '401 Your session has expired, please sign in again',
    'zh-TW': '401 登入已過期，請重新登入',
  },
  403: {
    'zh-CN': '403 禁止访问，没有权限',
    en: '403 Forbidden: you do not have permission',
    'zh-TW': '403 禁止存取，沒有權限',
  },
  404: { 'zh-CN': '404 接口不存在', en: '404 No such endpoint', 'zh-TW': '404 介面不存在' },
  405: { 'zh-CN': '405 请求方法不允许', en: '405 Method not allowed', 'zh-TW': '405 請求方法不允許' },
  413: { 'zh-CN': '413 请求内容过大', en: '413 The request is too large', 'zh-TW': '413 請求內容過大' },
  415: {
    'zh-CN': '415 不支持的内容类型',
    en: '415 Unsupported content type',
    'zh-TW': '415 不支援的內容類型',
  },
  429: {
    'zh-CN': '访问过于频繁,请稍后重试!',
    en: 'Too many requests, please try again later!',
    'zh-TW': '存取過於頻繁,請稍後重試!',
  },
  500: {
    'zh-CN': '服务器内部错误，请联系管理员（追踪号 {traceId}）',
    en: 'Internal server error, please contact the administrator (trace id {traceId})',
    'zh-TW': '伺服器內部錯誤，請聯絡管理員（追蹤號 {traceId}）',
  },
  503: {
    'zh-CN': '503 数据库暂时不可用，请稍后重试',
    en: '503 The database is temporarily unavailable, please try again shortly',
    'zh-TW': '503 資料庫暫時無法使用，請稍後重試',
  },
} as const satisfies Record<number, Localized>;

export type PlatformErrorCode = keyof typeof PLATFORM_ERRORS;

/**
 * A code the envelope of a refused request carries: a catalogue code, or a platform status. Clients compare
 * codes through this type, so a code that is not in the catalogue fails the typecheck.
 */
export type ErrorCode = BusinessErrorCode | PlatformErrorCode;

/** Field validation messages (zod issue codes → text). */
export const VALIDATION_MESSAGES = {
  required: { 'zh-CN': '{field}不能为空', en: '{field} is required', 'zh-TW': '{field}不能為空' },
  invalid: { 'zh-CN': '{field}格式不正确', en: '{field} is not valid', 'zh-TW': '{field}格式不正確' },
  tooShort: {
    'zh-CN': '{field}长度不能少于{min}',
    en: '{field} must be at least {min} long',
    'zh-TW': '{field}長度不能少於{min}',
  },
  tooLong: {
    'zh-CN': '{field}长度不能超过{max}',
    en: '{field} must be at most {max} long',
    'zh-TW': '{field}長度不能超過{max}',
  },
  tooSmall: {
    'zh-CN': '{field}不能小于{min}',
    en: '{field} must be at least {min}',
    'zh-TW': '{field}不能小於{min}',
  },
  tooBig: {
    'zh-CN': '{field}不能大于{max}',
    en: '{field} must be at most {max}',
    'zh-TW': '{field}不能大於{max}',
  },
  unknownField: { 'zh-CN': '不支持的字段', en: 'Unknown field', 'zh-TW': '不支援的欄位' },
  nulCharacter: {
    'zh-CN': '{field}不能包含空字符（\\0）',
    en: '{field} must not contain a NUL character (\\0)',
    'zh-TW': '{field}不能包含空字元（\\0）',
  },
} as const satisfies Record<string, Localized>;
