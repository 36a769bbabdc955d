import type {
  DiyImportJobTable,
  DiyTablePeriodLogTable,
  DiyTablePeriodTable,
  DiyTaskEventTable,
  DiyTaskFormTable,
  DiyTaskReceiverTable,
  DiyTaskReviewTable,
  DiyTaskScheduleRunTable,
  DiyTaskScheduleTable,
  DiyTaskTable,
  DiyTaskUrgeTable,
  DiyTaskZeroTable,
  DiyWordOutputTable,
  DiyWordTemplateTable,
} from './schema-diy.ts';
import type {
  SysCockpitLinkTable,
  SysCockpitTable,
  SysNoLoginLinkTable,
  SysNoLoginUseTable,
  SysSceneTable,
  SysStatementTable,
} from './schema-public.ts';
/**
 * Row types of the database, as Kysely sees them. Timestamps are `yyyy-MM-dd HH:mm:ss` strings in both
 * dialects; flags are 0/1 small integers; ids are numbers (pg int8 is parsed to number).
 */
export type BaseColumns = {
  id: number;
  create_time: string;
  update_time: string | null;
  create_user_id: number | null;
  create_user_name: string | null;
  update_user_id: number | null;
  update_user_name: string | null;
  is_delete: number;
};

export type TenantColumns = BaseColumns & { tenant_id: number };

export type SysTenantTable = BaseColumns & {
  code: string;
  name: string;
  org_id: number | null;
  host: string | null;
  status: number;
  order_no: number;
  remark: string | null;
};

export type SysOrgTable = TenantColumns & {
  pid: number;
  code: string;
  name: string;
  type: string;
  level: number;
  full_ids: string;
  full_names: string;
  region_code: string | null;
  order_no: number;
  status: number;
  remark: string | null;
};

export type SysPosTable = TenantColumns & {
  code: string;
  name: string;
  order_no: number;
  status: number;
  remark: string | null;
};

export type SysUserTable = TenantColumns & {
  account: string;
  password: string;
  real_name: string;
  nick_name: string | null;
  avatar: string | null;
  sex: number | null;
  phone: string | null;
  email: string | null;
  id_card_num: string | null;
  address: string | null;
  signature: string | null;
  account_type: number;
  org_id: number | null;
  pos_id: number | null;
  enterprise: string | null;
  area: string | null;
  area_code: string | null;
  street: string | null;
  street_code: string | null;
  community: string | null;
  community_code: string | null;
  wangge: string | null;
  wangge_code: string | null;
  weiwangge: string | null;
  weiwangge_code: string | null;
  region_id: string | null;
  region_name: string | null;
  status: number;
  order_no: number;
  remark: string | null;
  password_update_time: string | null;
  is_def_pwd: number;
  login_fail_count: number;
  lock_until: string | null;
  last_login_time: string | null;
  last_login_ip: string | null;
  /** Argon2id hash of the second password that sensitive actions ask for; null until the user sets one. */
  op_password: string | null;
  op_password_time: string | null;
};

export type SysUserExtOrgTable = { id: number; user_id: number; org_id: number; pos_id: number | null };

export type SysRoleTable = TenantColumns & {
  code: string;
  name: string;
  data_scope: number;
  order_no: number;
  status: number;
  remark: string | null;
};

export type SysUserRoleTable = { id: number; user_id: number; role_id: number };
export type SysRoleMenuTable = { id: number; role_id: number; menu_id: number };
export type SysRoleOrgTable = { id: number; role_id: number; org_id: number };
export type SysTenantMenuTable = { id: number; tenant_id: number; menu_id: number };

/** A named set of users of one tenant (tasks are later handed out to groups). */
export type SysUserGroupTable = TenantColumns & {
  code: string;
  name: string;
  order_no: number;
  status: number;
  remark: string | null;
};
export type SysUserGroupMemberTable = { id: number; group_id: number; user_id: number };

/** A server-to-server access key; requests signed with its secret act as `bind_user_id` in `tenant_id`. */
export type SysOpenAccessTable = TenantColumns & {
  access_key: string;
  /** SM4 cipher text of the secret (the HMAC needs the secret itself). */
  access_secret: string;
  bind_user_id: number;
  status: number;
  last_used_time: string | null;
  remark: string | null;
};

/** An uploaded file; `file_path` is relative to the upload root. */
export type SysFileTable = TenantColumns & {
  provider: string;
  file_name: string;
  suffix: string | null;
  file_path: string;
  size: number;
  content_type: string | null;
  file_md5: string | null;
  file_type: string | null;
  belong_id: number | null;
  is_public: number;
  remark: string | null;
  create_org_id: number | null;
  create_org_name: string | null;
};

export type SysMenuTable = BaseColumns & {
  pid: number;
  type: number;
  name: string;
  path: string | null;
  component: string | null;
  redirect: string | null;
  permission: string | null;
  title: string;
  icon: string | null;
  is_iframe: number;
  out_link: string | null;
  is_hide: number;
  is_keep_alive: number;
  is_affix: number;
  order_no: number;
  status: number;
  remark: string | null;
};

export type SysConfigTable = BaseColumns & {
  code: string;
  name: string;
  value: string | null;
  sys_flag: number;
  group_code: string | null;
  order_no: number;
  remark: string | null;
};

export type SysDictTypeTable = BaseColumns & {
  code: string;
  name: string;
  order_no: number;
  status: number;
  /** 1 built-in (cannot be deleted, code fixed), 2 added by an admin. */
  sys_flag: number;
  remark: string | null;
};

export type SysDictDataTable = BaseColumns & {
  dict_type_id: number;
  label: string;
  value: string;
  tag_type: string | null;
  style_setting: string | null;
  class_setting: string | null;
  ext_data: string | null;
  order_no: number;
  status: number;
  remark: string | null;
};

/** One login: access tokens carry its id; the current refresh token id rotates on every refresh. */
export type SysSessionTable = {
  id: number;
  tenant_id: number;
  user_id: number;
  refresh_jti: string;
  refresh_expire_time: string;
  login_type: number | null;
  ip: string | null;
  user_agent: string | null;
  create_time: string;
  last_active_time: string;
  revoked: number;
  revoke_time: string | null;
  revoke_reason: string | null;
  /** 1 when a signed request opened it for an access key's bound user (`/api/auth/token`). */
  service: number;
};

/** Columns every audit log row has: base and tenant columns, and who acted (null when nobody signed in). */
export type LogColumns = TenantColumns & {
  user_id: number | null;
  account: string | null;
  real_name: string | null;
};

type ClientColumns = {
  ip: string | null;
  browser: string | null;
  os: string | null;
  user_agent: string | null;
};

export type SysLogVisTable = LogColumns &
  ClientColumns & {
    action: string;
    /** 1 success, 2 failure (LOG_STATUS). */
    status: number;
    code: string | null;
    message: string | null;
    elapsed: number | null;
  };

export type SysLogOpTable = LogColumns &
  ClientColumns & {
    http_method: string;
    route_url: string | null;
    url: string;
    controller: string | null;
    action: string | null;
    params: string | null;
    code: string | null;
    status: number;
    message: string | null;
    elapsed: number;
    trace_id: string | null;
  };

export type SysLogExTable = LogColumns &
  ClientColumns & {
    trace_id: string;
    http_method: string;
    route_url: string | null;
    url: string;
    message: string | null;
    stack: string | null;
    params: string | null;
  };

export type SysLogDiffTable = LogColumns & {
  table_name: string;
  record_id: number;
  operation: string;
  before_data: string | null;
  after_data: string | null;
  changed_fields: string | null;
  trace_id: string | null;
};

export type SysRegionTable = BaseColumns & {
  pid: number;
  code: string;
  name: string;
  short_name: string | null;
  level: number;
  full_code: string;
  full_name: string;
  is_local: number;
  order_no: number;
  remark: string | null;
};

export type SysNoticeTable = TenantColumns & {
  title: string;
  content: string;
  type: number;
  status: number;
  audience: number;
  audience_ids: string | null;
  publish_at: string | null;
  public_time: string | null;
  public_user_id: number | null;
  public_user_name: string | null;
  public_org_id: number | null;
  public_org_name: string | null;
  cancel_time: string | null;
  create_org_id: number | null;
  create_org_name: string | null;
};

export type SysNoticeUserTable = {
  id: number;
  notice_id: number;
  user_id: number;
  tenant_id: number;
  read_status: number;
  read_time: string | null;
  create_time: string;
};

/** Scheduled jobs are the installation's, not a tenant's: no tenant_id. */
export type SysJobDetailTable = BaseColumns & {
  job_id: string;
  group_name: string | null;
  description: string | null;
  create_type: number;
  handler: string | null;
  http_url: string | null;
  http_method: string | null;
  http_headers: string | null;
  http_body: string | null;
  timeout_seconds: number;
  concurrent: number;
  remark: string | null;
};

export type SysJobTriggerTable = BaseColumns & {
  job_id: string;
  trigger_id: string;
  trigger_type: string;
  cron: string | null;
  period_seconds: number | null;
  description: string | null;
  status: number;
  start_time: string | null;
  end_time: string | null;
  max_number_of_runs: number;
  run_on_start: number;
  last_run_time: string | null;
  next_run_time: string | null;
  number_of_runs: number;
  number_of_errors: number;
};

export type SysJobRecordTable = {
  id: number;
  job_id: string;
  trigger_id: string | null;
  source: string;
  status: string;
  start_time: string;
  end_time: string | null;
  elapsed_ms: number | null;
  result: string | null;
  error: string | null;
  node_id: string;
  create_user_name: string | null;
};

export type SysJobClusterTable = {
  id: number;
  node_id: string;
  host: string | null;
  pid: number | null;
  version: string | null;
  start_time: string;
  heartbeat_time: string;
  status: number;
};

export type SysJobLeaseTable = {
  name: string;
  holder: string | null;
  expires_at: number;
  acquired_time: string | null;
};

/** A report form (issue 5): settings, audiences and designs as JSON; records live in `diy_data_<id>`. */
export type DiyTableTable = TenantColumns & {
  title: string;
  report_type: number;
  classify_id: number | null;
  owner_org_id: number | null;
  status: number;
  pwd_hash: string | null;
  fillers: string;
  viewers: string;
  reviewer_ids: string;
  needs_review: number;
  draft_design: string | null;
  draft_revision: number;
  version: number;
  query: string | null;
  last_update_time: string | null;
  /** JSON period settings (periodSettingsSchema); null: not periodic. */
  period: string | null;
  /** JSON roll-up config (report type 2). */
  rollup: string | null;
  /** Query reports (report type 3): the JSON `queryConfigSchema` (migration 0022). */
  query_config: string | null;
  record_count: number;
  order_no: number;
  remark: string | null;
  create_org_id: number | null;
  create_org_name: string | null;
  delete_time: string | null;
  delete_user_name: string | null;
};

export type DiyTableVersionTable = {
  id: number;
  table_id: number;
  version: number;
  design: string;
  publish_user_id: number | null;
  publish_user_name: string | null;
  publish_time: string;
};

/** A physical column of a form's data table; never deleted. */
export type DiyTableColumnTable = {
  id: number;
  table_id: number;
  field_id: string;
  column_name: string;
  storage_kind: string;
  created_version: number;
  create_time: string;
};

export type DiyRecordHistoryTable = {
  id: number;
  tenant_id: number;
  table_id: number;
  record_id: number;
  action: string;
  changes: string;
  comment: string | null;
  version: number;
  user_id: number | null;
  user_name: string | null;
  create_time: string;
  /** The unit that acted, for a step of a task's level review (migration 0028); null otherwise. */
  org_name: string | null;
};

export type DiyTableSeqTable = { id: number; table_id: number; period_key: string; last_no: number };

export type DiyTableClassifyTable = TenantColumns & {
  pid: number;
  name: string;
  icon: string | null;
  order_no: number;
  status: number;
  remark: string | null;
  create_org_id: number | null;
  create_org_name: string | null;
};

/** When a user last opened a form (its tip flag shows changes since). */
export type DiyTableVisitTable = { id: number; table_id: number; user_id: number; visit_time: string };
export type DiyTableCollectTable = {
  id: number;
  tenant_id: number;
  table_id: number;
  user_id: number;
  create_time: string;
};
export type DiyRowConfirmTable = {
  id: number;
  tenant_id: number;
  table_id: number;
  record_id: number;
  code_hash: string;
  expire_time: string;
  subject: string | null;
  answer: string | null;
  answer_comment: string | null;
  answer_time: string | null;
  answer_ip: string | null;
  create_time: string;
  create_user_id: number | null;
  create_user_name: string | null;
};

export type Database = {
  sys_tenant: SysTenantTable;
  sys_org: SysOrgTable;
  sys_pos: SysPosTable;
  sys_user: SysUserTable;
  sys_user_ext_org: SysUserExtOrgTable;
  sys_role: SysRoleTable;
  sys_user_role: SysUserRoleTable;
  sys_role_menu: SysRoleMenuTable;
  sys_role_org: SysRoleOrgTable;
  sys_menu: SysMenuTable;
  sys_tenant_menu: SysTenantMenuTable;
  sys_config: SysConfigTable;
  sys_dict_type: SysDictTypeTable;
  sys_dict_data: SysDictDataTable;
  sys_session: SysSessionTable;
  sys_log_vis: SysLogVisTable;
  sys_log_op: SysLogOpTable;
  sys_log_ex: SysLogExTable;
  sys_log_diff: SysLogDiffTable;
  sys_region: SysRegionTable;
  sys_user_group: SysUserGroupTable;
  sys_user_group_member: SysUserGroupMemberTable;
  sys_open_access: SysOpenAccessTable;
  sys_file: SysFileTable;
  sys_notice: SysNoticeTable;
  sys_notice_user: SysNoticeUserTable;
  sys_job_detail: SysJobDetailTable;
  sys_job_trigger: SysJobTriggerTable;
  sys_job_record: SysJobRecordTable;
  sys_job_cluster: SysJobClusterTable;
  sys_job_lease: SysJobLeaseTable;
  diy_table: DiyTableTable;
  diy_table_version: DiyTableVersionTable;
  diy_table_column: DiyTableColumnTable;
  diy_record_history: DiyRecordHistoryTable;
  diy_table_seq: DiyTableSeqTable;
  diy_table_classify: DiyTableClassifyTable;
  diy_table_visit: DiyTableVisitTable;
  diy_table_collect: DiyTableCollectTable;
  diy_row_confirm: DiyRowConfirmTable;
  diy_table_period: DiyTablePeriodTable;
  diy_table_period_log: DiyTablePeriodLogTable;
  diy_import_job: DiyImportJobTable;
  diy_task: DiyTaskTable;
  diy_task_form: DiyTaskFormTable;
  diy_task_receiver: DiyTaskReceiverTable;
  diy_task_event: DiyTaskEventTable;
  diy_task_zero: DiyTaskZeroTable;
  diy_task_schedule: DiyTaskScheduleTable;
  diy_task_schedule_run: DiyTaskScheduleRunTable;
  sys_nologin_link: SysNoLoginLinkTable;
  sys_nologin_use: SysNoLoginUseTable;
  diy_task_urge: DiyTaskUrgeTable;
  diy_task_review: DiyTaskReviewTable;
  sys_cockpit: SysCockpitTable;
  sys_cockpit_link: SysCockpitLinkTable;
  sys_statement: SysStatementTable;
  sys_scene: SysSceneTable;
  diy_word_template: DiyWordTemplateTable;
  diy_word_output: DiyWordOutputTable;
};

export type * from './schema-diy.ts';
export type * from './schema-public.ts';
