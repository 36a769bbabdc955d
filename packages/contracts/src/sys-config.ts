/**
 * Config codes any signed-in user may read through `sysConfig/list` (the shell needs them); the full
 * list, including `sys_password`, needs the `sysConfig:list` permission.
 */
export const CLIENT_CONFIG_CODES = [
  'sys_captcha',
  'sys_second_ver',
  'sys_watermark',
  'sys_paste_copy',
  'SingleSignOnExpire',
  'AutoLogoutTime',
  'sys_lock_screen_time',
  'sys_password_strong',
  'sys_web_title',
  'sys_web_logo',
  'sys_web_copyright',
  'sys_web_icp',
  'sys_file_max_size_mb',
  'sys_file_allowed_types',
] as const;
