import { defineLocale } from '../../platform/i18n/feature-locale.ts';

export default defineLocale({
  'zh-CN': {
    peoplePick: {
      pickUsers: '搜索姓名、账号选择用户',
      noUsers: '没有匹配的用户',
      pickRoles: '选择角色',
      rolesFailed: '无法加载角色',
    },
  },
  en: {
    peoplePick: {
      pickUsers: 'Search by name or account',
      noUsers: 'No matching users',
      pickRoles: 'Roles',
      rolesFailed: 'Roles could not be loaded',
    },
  },
  'zh-TW': {
    peoplePick: {
      pickUsers: '搜尋姓名、帳號選擇使用者',
      noUsers: '沒有符合的使用者',
      pickRoles: '選擇角色',
      rolesFailed: '無法載入角色',
    },
  },
});
