import type { Localized } from './i18n.ts';

/**
 * The report forms' (F) and tasks' (T) part of the business error catalogue; `BUSINESS_ERRORS` in errors.ts
 * holds them with the rest.
 */
export const DIY_ERRORS = {
  F1000: {
    'zh-CN': '表单不存在或已删除',
    en: 'The form does not exist or has been deleted',
    'zh-TW': '表單不存在或已刪除',
  },
  F1001: {
    'zh-CN': '您没有该表单的此项权限',
    en: 'You may not do this on this form',
    'zh-TW': '您沒有該表單的此項權限',
  },
  F1002: {
    'zh-CN': '表单尚未发布',
    en: 'The form has not been published yet',
    'zh-TW': '表單尚未發佈',
  },
  F1003: { 'zh-CN': '表单已停用', en: 'The form is disabled', 'zh-TW': '表單已停用' },
  F1004: {
    'zh-CN': '表单设计已被他人修改，请刷新后重试',
    en: 'Someone else changed the design meanwhile; reload and try again',
    'zh-TW': '表單設計已被他人修改，請重新整理後重試',
  },
  F1005: {
    'zh-CN': '表单密码不正确',
    en: 'The form password is incorrect',
    'zh-TW': '表單密碼不正確',
  },
  F1006: {
    'zh-CN': '表单密码错误次数过多，请10分钟后再试',
    en: 'Too many wrong form passwords; try again in 10 minutes',
    'zh-TW': '表單密碼錯誤次數過多，請10分鐘後再試',
  },
  F1007: {
    'zh-CN': '请先验证表单密码',
    en: 'Enter the form password first',
    'zh-TW': '請先驗證表單密碼',
  },
  F1008: {
    'zh-CN': '记录不存在或不在您的查看范围内',
    en: 'The record does not exist or is outside what you may see',
    'zh-TW': '記錄不存在或不在您的查看範圍內',
  },
  F1009: {
    'zh-CN': '记录已审核通过，不能修改或删除',
    en: 'The record has been approved and can no longer be changed or deleted',
    'zh-TW': '記錄已審核通過，不能修改或刪除',
  },
  F1010: {
    'zh-CN': '表单分类不存在',
    en: 'The form category does not exist',
    'zh-TW': '表單分類不存在',
  },
  F1011: {
    'zh-CN': '表单密码长度为6到12个字符',
    en: 'The form password must be 6 to 12 characters long',
    'zh-TW': '表單密碼長度為6到12個字元',
  },
  F1012: {
    'zh-CN': '只能审核待审核的记录',
    en: 'Only records awaiting review can be approved or returned',
    'zh-TW': '只能審核待審核的記錄',
  },
  F1013: {
    'zh-CN': '接收人不存在或不能接收该表单的记录',
    en: 'The receiving user does not exist or may not hold records of this form',
    'zh-TW': '接收人不存在或不能接收該表單的記錄',
  },
  F1014: {
    'zh-CN': '回收站中没有该项，可能已被恢复或清除',
    en: 'The item is not in the recycle bin; it may have been restored or purged',
    'zh-TW': '回收站中沒有該項，可能已被還原或清除',
  },
  F1015: {
    'zh-CN': '记录所属表单已删除，请先恢复表单',
    en: "The record's form has been deleted; restore the form first",
    'zh-TW': '記錄所屬表單已刪除，請先還原表單',
  },
  F1016: {
    'zh-CN': '分类下仍有表单或子分类，不能删除',
    en: 'The category still holds forms or sub-categories and cannot be deleted',
    'zh-TW': '分類下仍有表單或子分類，不能刪除',
  },
  F1017: {
    'zh-CN': '确认链接无效',
    en: 'The confirmation link is not valid',
    'zh-TW': '確認連結無效',
  },
  F1018: {
    'zh-CN': '确认链接已过期',
    en: 'The confirmation link has expired',
    'zh-TW': '確認連結已過期',
  },
  F1019: {
    'zh-CN': '该确认链接已使用，不能重复提交',
    en: 'The confirmation link has already been answered',
    'zh-TW': '該確認連結已使用，不能重複提交',
  },
  F1020: {
    'zh-CN': '确认链接不属于该记录',
    en: 'The confirmation link belongs to another record',
    'zh-TW': '確認連結不屬於該記錄',
  },
  F1021: {
    'zh-CN': '本期填报尚未开始',
    en: 'Filing for this period has not started yet',
    'zh-TW': '本期填報尚未開始',
  },
  F1022: {
    'zh-CN': '本期填报已截止，请联系管理员重新开启',
    en: 'Filing for this period has ended; ask an administrator to reopen it',
    'zh-TW': '本期填報已截止，請聯繫管理員重新開啟',
  },
  F1023: {
    'zh-CN': '本期已关闭，重新开启后才能修改',
    en: 'The period is closed; it must be reopened before records can change',
    'zh-TW': '本期已關閉，重新開啟後才能修改',
  },
  F1024: {
    'zh-CN': '本单位本期已填报，请修改已有记录',
    en: 'Your unit has already filed for this period; change the existing record',
    'zh-TW': '本單位本期已填報，請修改已有記錄',
  },
  F1025: {
    'zh-CN': '填报周期不存在',
    en: 'The reporting period does not exist',
    'zh-TW': '填報週期不存在',
  },
  F1026: {
    'zh-CN': '该时间段与已有周期重叠',
    en: 'The dates overlap an existing period',
    'zh-TW': '該時間段與已有週期重疊',
  },
  F1027: {
    'zh-CN': '该表单不是周期填报表单',
    en: 'The form is not collected by period',
    'zh-TW': '該表單不是週期填報表單',
  },
  F1030: {
    'zh-CN': '文件不是有效的 Excel 工作簿（.xlsx）',
    en: 'The file is not a valid Excel workbook (.xlsx)',
    'zh-TW': '檔案不是有效的 Excel 活頁簿（.xlsx）',
  },
  F1031: {
    'zh-CN': '文件过大或解压后过大，请拆分后再导入',
    en: 'The file is too large, or expands too much when unpacked; split it and import again',
    'zh-TW': '檔案過大或解壓後過大，請拆分後再匯入',
  },
  F1032: {
    'zh-CN': '工作簿中没有与表单字段对应的列，请使用下载的模板',
    en: 'No column of the workbook matches a field of the form; use the downloaded template',
    'zh-TW': '活頁簿中沒有與表單欄位對應的欄，請使用下載的範本',
  },
  F1033: {
    'zh-CN': '导入任务不存在或已过期，请重新上传',
    en: 'The import does not exist or has expired; upload the file again',
    'zh-TW': '匯入任務不存在或已過期，請重新上傳',
  },
  F1034: {
    'zh-CN': '导入任务当前状态不能执行此操作',
    en: 'The import cannot do this in its current state',
    'zh-TW': '匯入任務目前狀態不能執行此操作',
  },
  F1035: {
    'zh-CN': '没有可导入的有效行',
    en: 'There are no valid rows to import',
    'zh-TW': '沒有可匯入的有效列',
  },
  F1036: {
    'zh-CN': '接收人所在单位本期已有记录，不能再移交记录给他',
    en: "The receiving user's unit already has a record for this period; it cannot take another",
    'zh-TW': '接收人所在單位本期已有記錄，不能再移交記錄給他',
  },
  F1039: {
    'zh-CN': '导入因服务重启而中断，未写入任何数据，请重新导入',
    en: 'The import was interrupted by a server restart and nothing was written; please import again',
    'zh-TW': '匯入因服務重啟而中斷，未寫入任何資料，請重新匯入',
  },
  F1040: {
    'zh-CN': '汇总表的来源表单不存在或您无权查看',
    en: 'The source form of the roll-up does not exist or you may not see it',
    'zh-TW': '彙總表的來源表單不存在或您無權查看',
  },
  F1041: {
    'zh-CN': '汇总配置中的字段不存在或不是数字字段',
    en: 'A field of the roll-up does not exist or is not a number field',
    'zh-TW': '彙總設定中的欄位不存在或不是數字欄位',
  },
  T1000: {
    'zh-CN': '任务不存在或您无权查看',
    en: 'The task does not exist or you may not see it',
    'zh-TW': '任務不存在或您無權查看',
  },
  T1001: {
    'zh-CN': '截止时间必须晚于当前时间',
    en: 'The due time must lie in the future',
    'zh-TW': '截止時間必須晚於目前時間',
  },
  T1002: {
    'zh-CN': '任务中的表单不存在、未发布、已停用或您无权下发',
    en: 'A form of the task does not exist, is not published or enabled, or you may not hand it out',
    'zh-TW': '任務中的表單不存在、未發佈、已停用或您無權下發',
  },
  T1003: {
    'zh-CN': '接收单位不存在、已停用或超出您的数据范围',
    en: 'A receiving unit does not exist, is disabled or lies outside your data scope',
    'zh-TW': '接收單位不存在、已停用或超出您的資料範圍',
  },
  T1004: {
    'zh-CN': '以下单位不能填报任务中的表单：{names}',
    en: 'These units may not fill the forms of the task: {names}',
    'zh-TW': '以下單位不能填報任務中的表單：{names}',
  },
  T1005: {
    'zh-CN': '下发的截止时间不能晚于上级的截止时间（{due}）',
    en: 'The due time may not be later than the one set above ({due})',
    'zh-TW': '下發的截止時間不能晚於上級的截止時間（{due}）',
  },
  T1006: {
    'zh-CN': '不能转办回已转出过该任务的单位',
    en: 'The task cannot be transferred back to a unit that passed it on',
    'zh-TW': '不能轉辦回已轉出過該任務的單位',
  },
  T1007: {
    'zh-CN': '该单位已是本任务的接收单位：{names}',
    en: 'Already receiving this task: {names}',
    'zh-TW': '該單位已是本任務的接收單位：{names}',
  },
  T1008: {
    'zh-CN': '没有符合条件的接收单位',
    en: 'No unit matches the receivers chosen',
    'zh-TW': '沒有符合條件的接收單位',
  },
  T1009: {
    'zh-CN': '只能下发给本单位的下级单位',
    en: 'A task can be handed on only to units below your own',
    'zh-TW': '只能下發給本單位的下級單位',
  },
  T1010: {
    'zh-CN': '您不能代表该接收单位处理任务，或该单位的任务已转办',
    en: 'You may not act for this receiving unit, or its part has been transferred',
    'zh-TW': '您不能代表該接收單位處理任務，或該單位的任務已轉辦',
  },
  T1011: {
    'zh-CN': '接收单位过多（最多 {max} 个）',
    en: 'Too many receiving units (at most {max})',
    'zh-TW': '接收單位過多（最多 {max} 個）',
  },
  T1020: {
    'zh-CN': '您不能催办这些接收单位：{names}',
    en: 'You may not urge these receiving units: {names}',
    'zh-TW': '您不能催辦這些接收單位：{names}',
  },
  T1021: {
    'zh-CN': '这些单位已完成填报或已转办，无需催办：{names}',
    en: 'These units have already filed or passed their part on: {names}',
    'zh-TW': '這些單位已完成填報或已轉辦，無需催辦：{names}',
  },
  T1022: {
    'zh-CN': '任务已关闭，不能催办',
    en: 'The task is closed and cannot be urged',
    'zh-TW': '任務已關閉，不能催辦',
  },
  T1030: {
    'zh-CN': '新的截止时间早于下级单位的截止时间：{names}',
    en: 'The new due time is earlier than the due time of units below: {names}',
    'zh-TW': '新的截止時間早於下級單位的截止時間：{names}',
  },
  T1031: {
    'zh-CN': '该单位已提交此表单，不能报零报告',
    en: 'The unit has already filed this form; it cannot declare a zero report',
    'zh-TW': '該單位已提交此表單，不能報零報告',
  },
  T1032: {
    'zh-CN': '任务已关闭，请先重新打开',
    en: 'The task is closed; reopen it first',
    'zh-TW': '任務已關閉，請先重新開啟',
  },
  T1033: {
    'zh-CN': '表单“{title}”已停用、取消发布或删除，不能下发、转办或报零报告',
    en: 'The form "{title}" has been disabled, unpublished or deleted; it cannot be handed on, transferred or reported as zero',
    'zh-TW': '表單「{title}」已停用、取消發佈或刪除，不能下發、轉辦或報零報告',
  },
  T1034: {
    'zh-CN': '任务未关闭',
    en: 'The task is not closed',
    'zh-TW': '任務未關閉',
  },
  T1035: {
    'zh-CN': '该单位没有此表单的零报告',
    en: 'The unit has no zero report for this form',
    'zh-TW': '該單位沒有此表單的零報告',
  },
  T1036: {
    'zh-CN': '该表单不属于此任务',
    en: 'The form is not part of this task',
    'zh-TW': '該表單不屬於此任務',
  },
  T1037: {
    'zh-CN': '只有任务的创建者或数据范围包含创建单位的用户可以修改、关闭或删除任务',
    en: 'Only the creator of the task, or whoever has its creating unit in their data scope, may edit, close or delete it',
    'zh-TW': '只有任務的建立者或資料範圍包含建立單位的使用者可以修改、關閉或刪除任務',
  },
  T1040: {
    'zh-CN': '计划任务不存在或您无权查看',
    en: 'The scheduled task does not exist or you may not see it',
    'zh-TW': '計劃任務不存在或您無權查看',
  },
  T1041: {
    'zh-CN': '计划任务的表单必须是有填报周期的已发布表单，且周期类型相同',
    en: 'The forms of a scheduled task must be published periodic forms of the same period kind',
    'zh-TW': '計劃任務的表單必須是有填報週期的已發佈表單，且週期類型相同',
  },
  T1042: {
    'zh-CN': '表单“{form}”没有周期 {period}',
    en: 'The form “{form}” has no period {period}',
    'zh-TW': '表單「{form}」沒有週期 {period}',
  },
  T1043: {
    'zh-CN': '计划任务的创建人已停用、已删除或不再有新建任务的权限',
    en: 'The creator of the scheduled task is disabled, deleted or may no longer create tasks',
    'zh-TW': '計劃任務的建立人已停用、已刪除或不再有新建任務的權限',
  },
  T1044: {
    'zh-CN': '本期的截止时间（{due}）在计划运行时已过，未创建任务',
    en: 'The due time of this period ({due}) had passed when the schedule ran; no task was made',
    'zh-TW': '本期的截止時間（{due}）在計劃執行時已過，未建立任務',
  },
  B1000: {
    'zh-CN': '只有已发布的报表表单和汇总表有数据看板',
    en: 'Only published report forms and roll-ups have a data dashboard',
    'zh-TW': '只有已發佈的報表表單和彙總表有資料看板',
  },
  T1050: {
    'zh-CN': '该记录不属于此任务的逐级审核',
    en: 'The record is not under the level-by-level review of this task',
    'zh-TW': '該記錄不屬於此任務的逐級審核',
  },
  T1051: {
    'zh-CN': '您不能审核这些记录，它们正等待以下单位审核：{names}',
    en: 'You may not review these records; they are waiting for: {names}',
    'zh-TW': '您不能審核這些記錄，它們正等待以下單位審核：{names}',
  },
  T1052: {
    'zh-CN': '记录不在待审核状态（可能已被退回、通过或由他人先行审核）',
    en: 'The record is not waiting for review (returned, approved or reviewed by someone else first)',
    'zh-TW': '記錄不在待審核狀態（可能已被退回、通過或由他人先行審核）',
  },
  T1053: {
    'zh-CN': '逐级审核要求任务中的每个表单都需要审核：{title}',
    en: 'Level-by-level review needs every form of the task to require review: {title}',
    'zh-TW': '逐級審核要求任務中的每個表單都需要審核：{title}',
  },
  T1054: {
    'zh-CN': '此任务未启用逐级审核',
    en: 'This task has no level-by-level review',
    'zh-TW': '此任務未啟用逐級審核',
  },
  T1055: {
    'zh-CN': '任务已关闭，不能审核',
    en: 'The task is closed and cannot be reviewed',
    'zh-TW': '任務已關閉，不能審核',
  },
  T1056: {
    'zh-CN': '该记录正在任务“{title}”中逐级审核，请在任务详情的逐级审核中审核',
    en: 'The record is under the level-by-level review of the task “{title}”: review it there, on the task’s page',
    'zh-TW': '該記錄正在任務「{title}」中逐級審核，請在任務詳情的逐級審核中審核',
  },
  B1020: {
    'zh-CN': '驾驶舱只能展示已发布、可查询的报表表单：{form}',
    en: 'The cockpit shows only published report forms you may query: {form}',
    'zh-TW': '駕駛艙只能展示已發佈、可查詢的報表表單：{form}',
  },
  B1021: {
    'zh-CN': '驾驶舱链接无效',
    en: 'The cockpit link is not valid',
    'zh-TW': '駕駛艙連結無效',
  },
  B1022: {
    'zh-CN': '驾驶舱链接已过期',
    en: 'The cockpit link has expired',
    'zh-TW': '駕駛艙連結已過期',
  },
  B1023: {
    'zh-CN': '驾驶舱链接已撤销',
    en: 'The cockpit link has been revoked',
    'zh-TW': '駕駛艙連結已撤銷',
  },
  B1024: {
    'zh-CN': '驾驶舱链接的发布人已停用或不再有查看驾驶舱的权限',
    en: 'The publisher of the cockpit link is disabled or may no longer view the cockpit',
    'zh-TW': '駕駛艙連結的發佈人已停用或不再有檢視駕駛艙的權限',
  },
  B1010: {
    'zh-CN': '统计月份范围有误：开始月份不能晚于结束月份，且最多 {max} 个月',
    en: 'Wrong month range: the first month may not come after the last, and at most {max} months',
    'zh-TW': '統計月份範圍有誤：開始月份不能晚於結束月份，且最多 {max} 個月',
  },
  B1011: {
    'zh-CN': '表单不存在、已删除或不是报表表单',
    en: 'The form does not exist, has been deleted or is not a report form',
    'zh-TW': '表單不存在、已刪除或不是報表表單',
  },
} as const satisfies Record<string, Localized>;
