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
    'zh-CN': '禁止删除租户管理员角色',
    en: 'The tenant administrator role cannot be deleted',
    'zh-TW': '禁止刪除租戶管理員角色',
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
  Z1003: { 'zh-CN': '租户已禁用', en: 'The tenant is disabled', 'zh-TW': '租戶已停用' },
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
} as const satisfies Record<number, Localized>;

export type PlatformErrorCode = keyof typeof PLATFORM_ERRORS;

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
} as const satisfies Record<string, Localized>;
