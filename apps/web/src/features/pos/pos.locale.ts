import { defineLocale } from '../../platform/i18n/feature-locale.ts';

export default defineLocale({
  'zh-CN': {
    sysPos: {
      entity: '职位',
      title: '职位列表',
      name: '职位名称',
      code: '职位编码',
      orderNo: '排序',
      remark: '备注',
      createTime: '创建时间',
      codeRule: '编码只能包含字母、数字、下划线和短横线',
      exportName: '职位',
    },
  },
  en: {
    sysPos: {
      entity: 'position',
      title: 'Positions',
      name: 'Name',
      code: 'Code',
      orderNo: 'Order',
      remark: 'Remark',
      createTime: 'Created',
      codeRule: 'Letters, digits, underscores and hyphens only',
      exportName: 'Positions',
    },
  },
  'zh-TW': {
    sysPos: {
      entity: '職位',
      title: '職位列表',
      name: '職位名稱',
      code: '職位編碼',
      orderNo: '排序',
      remark: '備註',
      createTime: '建立時間',
      codeRule: '編碼只能包含字母、數字、底線和短橫線',
      exportName: '職位',
    },
  },
});
