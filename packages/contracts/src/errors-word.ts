import type { Localized } from './i18n.ts';

/**
 * The Word documents' (W, issue 21 §3) part of the business error catalogue; `BUSINESS_ERRORS` in errors.ts holds
 * them with the rest.
 */
export const WORD_ERRORS = {
  W1000: {
    'zh-CN': '文书模板不存在或您无权使用',
    en: 'The document template does not exist or you may not use it',
    'zh-TW': '文書範本不存在或您無權使用',
  },
  W1001: {
    'zh-CN': '模板的来源（表单、汇总表或查询报表）不存在、未发布或您无权查看',
    en: 'The template’s source (form, roll-up or query report) does not exist, is not published or you may not see it',
    'zh-TW': '範本的來源（表單、彙總表或查詢報表）不存在、未發佈或您無權查看',
  },
  W1002: {
    'zh-CN': '不是可读取的 Word 文档（.docx）：{reason}',
    en: 'This is not a readable Word document (.docx): {reason}',
    'zh-TW': '不是可讀取的 Word 文件（.docx）：{reason}',
  },
  W1003: {
    'zh-CN': '模板中的占位符没有对应的字段：{names}',
    en: 'Placeholders of the template name no field: {names}',
    'zh-TW': '範本中的預留位置沒有對應的欄位：{names}',
  },
  W1004: {
    'zh-CN': '模板解压后过大或文件过多，已拒绝',
    en: 'The template unpacks to too much data or too many files and was refused',
    'zh-TW': '範本解壓縮後過大或檔案過多，已拒絕',
  },
  W1005: {
    'zh-CN': '此模板不能这样生成（来源类型不符）',
    en: 'This template cannot be generated this way (its source is of another kind)',
    'zh-TW': '此範本不能這樣產生（來源類型不符）',
  },
  W1006: {
    'zh-CN': '该周期不属于模板的表单',
    en: 'The period is not one of the template’s form',
    'zh-TW': '該週期不屬於範本的表單',
  },
  W1007: {
    'zh-CN': '一次最多生成 {max} 份文书',
    en: 'At most {max} documents can be generated at once',
    'zh-TW': '一次最多產生 {max} 份文書',
  },
  W1008: {
    'zh-CN': '没有可生成文书的记录',
    en: 'There is no record to generate documents from',
    'zh-TW': '沒有可產生文書的記錄',
  },
  W1009: {
    'zh-CN': '生成文书失败：{reason}',
    en: 'The document could not be generated: {reason}',
    'zh-TW': '產生文書失敗：{reason}',
  },
  W1010: {
    'zh-CN': '查询结果超过 {max} 行，请用查询条件缩小范围',
    en: 'The query gives more than {max} rows; narrow it with the parameters',
    'zh-TW': '查詢結果超過 {max} 列，請用查詢條件縮小範圍',
  },
} as const satisfies Record<string, Localized>;
