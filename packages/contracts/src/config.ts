import { z } from 'zod';

/** Config codes with their defaults (REFERENCE "Config codes"). Values are stored as strings. */
export const CONFIG_DEFAULTS = {
  sys_password: 'Shuzhi@2026',
  sys_passwd_max_error_times: '5',
  sys_captcha: 'true',
  sys_second_ver: 'false',
  sys_token_expire: '10080',
  sys_refresh_token_expire: '20160',
  sys_single_login: 'false',
  sys_oplog: 'true',
  sys_watermark: 'false',
  sys_paste_copy: 'false',
  SingleSignOnExpire: '1',
  AutoLogoutTime: '0',
  sys_web_title: '',
  sys_web_logo: '',
  sys_web_copyright: '',
  sys_web_icp: '',
  sys_password_strong: 'false',
  sys_password_max_age_days: '0',
  sys_lock_screen_time: '30',
  /** Days to keep visit, operation, exception and diff logs; 0 keeps them forever. */
  sys_log_retention_days: '180',
  /** Largest upload through /api/sysFile/uploadFile, in MB. */
  sys_file_max_size_mb: '50',
  /** Suffixes /api/sysFile/uploadFile accepts (comma-separated); the content must match the suffix. */
  sys_file_allowed_types: 'pdf,doc,docx,xls,xlsx,ppt,pptx,txt,csv,png,jpg,jpeg,gif,webp,zip',
  /** Days to keep scheduled-job run records; 0 keeps them forever. */
  sys_job_record_retention_days: '30',
  /** Hours (product's time zone) when the tasks' automatic reminders wait: `HH:mm-HH:mm`; empty: none. */
  diy_task_urge_quiet_hours: '22:00-08:00',
} as const;
export type ConfigCode = keyof typeof CONFIG_DEFAULTS;

export const configItemSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  value: z.string().nullable(),
  sysFlag: z.number(),
  groupCode: z.string().nullable(),
  orderNo: z.number(),
  remark: z.string().nullable(),
});
export type ConfigItem = z.infer<typeof configItemSchema>;
