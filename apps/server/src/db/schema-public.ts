/**
 * The tables of what is opened without a login or on a wall: login-free links and their uses (0021), the cockpit's
 * settings and signed links (0025), public statements and custom scenes (0027). Part of `Database` (schema.ts).
 */

export type SysNoLoginLinkTable = {
  id: number;
  tenant_id: number;
  title: string;
  qr_type: string;
  table_id: number;
  record_id: number | null;
  mode: string;
  expire_time: string;
  max_uses: number | null;
  use_count: number;
  revoke_time: string | null;
  remark: string | null;
  create_time: string;
  create_user_id: number;
  create_user_name: string | null;
  is_delete: number;
};
export type SysNoLoginUseTable = {
  id: number;
  tenant_id: number;
  link_id: number;
  action: string;
  record_id: number | null;
  code: string | null;
  token_id: string | null;
  ip: string;
  user_agent: string | null;
  create_time: string;
};

/** The cockpit's settings of a tenant (JSON of `CockpitConfig`, docs/dashboards.md). */
export type SysCockpitTable = {
  id: number;
  tenant_id: number;
  config: string;
  update_time: string;
  update_user_id: number | null;
  update_user_name: string | null;
};
/** A signed login-free link to the cockpit. */
export type SysCockpitLinkTable = {
  id: number;
  tenant_id: number;
  expire_time: string;
  revoke_time: string | null;
  create_time: string;
  create_user_id: number;
  create_user_name: string | null;
};
/** Public statements and custom scenes (0027, docs/no-login.md). */
export type SysStatementTable = {
  id: number;
  tenant_id: number;
  title: string;
  intro: string | null;
  kind: string;
  table_id: number;
  record_id: number | null;
  /** JSON array of field ids. */
  fields: string;
  /** JSON `{filters, createTime}` or null. */
  filter: string | null;
  expire_time: string;
  withdraw_time: string | null;
  view_count: number;
  create_time: string;
  create_user_id: number;
  create_user_name: string | null;
  update_time: string | null;
  is_delete: number;
};
export type SysSceneTable = {
  id: number;
  tenant_id: number;
  title: string;
  intro: string | null;
  banner_file_id: number | null;
  /** JSON array of entries. */
  entries: string;
  expire_time: string;
  withdraw_time: string | null;
  view_count: number;
  create_time: string;
  create_user_id: number;
  create_user_name: string | null;
  update_time: string | null;
  is_delete: number;
};
