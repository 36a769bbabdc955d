import { CONFIG_DEFAULTS, type ConfigCode } from '@shuzhi/contracts/config';
import type { SeedConfig } from '../types.ts';

/**
 * System parameters: every code of `CONFIG_DEFAULTS` with its default value. All are built in
 * (sysFlag 1) and cannot be deleted; an admin changes the value.
 */
const META: Record<ConfigCode, { name: string; groupCode: string; remark: string }> = {
  sys_password: {
    name: '默认密码',
    groupCode: 'Security',
    remark: '新建账号和重置密码时使用的初始密码；以初始密码登录须先修改密码',
  },
  sys_passwd_max_error_times: {
    name: '密码最大错误次数',
    groupCode: 'Security',
    remark: '同一账号连续输错密码达到该次数后锁定 30 分钟',
  },
  sys_captcha: { name: '登录验证码', groupCode: 'Login', remark: 'true 时账号登录需要输入图形验证码' },
  sys_second_ver: { name: '二次验证', groupCode: 'Login', remark: 'true 时登录需要二次验证' },
  sys_token_expire: {
    name: '令牌有效期',
    groupCode: 'Login',
    remark: '访问令牌有效期，单位：分钟（10080 = 7 天）',
  },
  sys_refresh_token_expire: {
    name: '刷新令牌有效期',
    groupCode: 'Login',
    remark: '刷新令牌有效期，单位：分钟（20160 = 14 天），须大于令牌有效期',
  },
  sys_single_login: {
    name: '单设备登录',
    groupCode: 'Login',
    remark: 'true 时同一账号再次登录会使之前的会话下线',
  },
  sys_oplog: { name: '操作日志', groupCode: 'Default', remark: 'true 时记录每一次写操作' },
  sys_watermark: {
    name: '页面水印',
    groupCode: 'Web',
    remark: 'true 时页面显示水印（系统名称、用户姓名、当前日期）',
  },
  sys_paste_copy: { name: '禁止复制粘贴', groupCode: 'Web', remark: 'true 时页面禁止复制和粘贴' },
  SingleSignOnExpire: {
    name: '单点登录保持',
    groupCode: 'Login',
    remark: '大于 0 时单点登录进入后保留令牌，否则关闭页面即退出',
  },
  AutoLogoutTime: {
    name: '无操作自动退出',
    groupCode: 'Login',
    remark: '无鼠标、键盘操作多少分钟后自动退出登录，单位：分钟；0 表示关闭',
  },
  sys_web_title: { name: '系统标题', groupCode: 'Web', remark: '为空时使用所选地区配置的系统名称' },
  sys_web_logo: { name: '系统图标', groupCode: 'Web', remark: '图标地址；为空时按地区配置生成' },
  sys_web_copyright: { name: '版权信息', groupCode: 'Web', remark: '页脚版权信息；为空时不显示' },
  sys_web_icp: { name: 'ICP 备案号', groupCode: 'Web', remark: '页脚 ICP 备案号；为空时不显示' },
  sys_password_strong: {
    name: '强密码',
    groupCode: 'Security',
    remark: 'true 时新密码须为 12~16 位，且同时包含字母、数字和符号（~!@#$%^&.*）',
  },
  sys_password_max_age_days: {
    name: '密码有效期',
    groupCode: 'Security',
    remark: '密码使用多少天后须修改，单位：天；0 表示永不过期',
  },
  sys_lock_screen_time: {
    name: '锁屏时间',
    groupCode: 'Web',
    remark: '无操作多少分钟后锁屏（开启锁屏时），单位：分钟',
  },
  sys_log_retention_days: {
    name: '日志保留天数',
    groupCode: 'Default',
    remark: '访问、操作、异常和差异日志保留的天数，每天清理一次；0 表示永久保留',
  },
  sys_file_max_size_mb: {
    name: '上传文件大小上限',
    groupCode: 'File',
    remark: '文件管理上传单个文件的最大大小，单位：MB',
  },
  sys_file_allowed_types: {
    name: '允许上传的文件类型',
    groupCode: 'File',
    remark: '允许上传的文件后缀，用英文逗号分隔；文件内容须与后缀相符',
  },
  sys_job_record_retention_days: {
    name: '作业记录保留天数',
    groupCode: 'Default',
    remark: '定时任务运行记录保留的天数；0 表示永久保留',
  },
  diy_task_urge_quiet_hours: {
    name: '任务催办免打扰时段',
    groupCode: 'Default',
    remark: '自动催办在此时段内不发送，时段结束后补发；格式 22:00-08:00，留空表示不设',
  },
};

export const CONFIGS: SeedConfig[] = (Object.keys(CONFIG_DEFAULTS) as ConfigCode[]).map((code, i) => ({
  code,
  value: CONFIG_DEFAULTS[code],
  sysFlag: 1,
  orderNo: (i + 1) * 10,
  ...META[code],
}));
