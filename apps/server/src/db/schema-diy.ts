/** The tables of reporting periods, imports and tasks; `Database` in schema.ts names them with the rest. */
/** A reporting period of a form (issue 6 §1, docs/periods.md). Dates are `YYYY-MM-DD`. */
export type DiyTablePeriodTable = {
  id: number;
  tenant_id: number;
  table_id: number;
  period_key: string;
  name: string;
  start_date: string;
  end_date: string;
  due_date: string;
  grace_until: string | null;
  reopen_until: string | null;
  version: number;
  closed: number;
  close_time: string | null;
  close_user_name: string | null;
  create_time: string;
  create_user_id: number | null;
  create_user_name: string | null;
  update_time: string | null;
};

export type DiyTablePeriodLogTable = {
  id: number;
  tenant_id: number;
  table_id: number;
  period_id: number;
  action: string;
  comment: string | null;
  changes: string;
  user_id: number | null;
  user_name: string | null;
  create_time: string;
};

/** An Excel import being checked or confirmed (issue 6 §4, docs/import.md). */
export type DiyImportJobTable = {
  id: number;
  tenant_id: number;
  table_id: number;
  user_id: number;
  period_id: number | null;
  file_name: string;
  state: string;
  processed: number;
  total: number | null;
  valid_count: number;
  invalid_count: number;
  duplicate_count: number;
  inserted: number;
  summary: string | null;
  failure: string | null;
  work_dir: string | null;
  create_time: string;
  finish_time: string | null;
};

/** A task (issue 19, docs/tasks.md): forms asked of receiving units by a due time. */
export type DiyTaskTable = {
  id: number;
  tenant_id: number;
  title: string;
  instructions: string;
  attachments: string;
  due_time: string;
  state: string;
  create_time: string;
  update_time: string | null;
  create_user_id: number | null;
  create_user_name: string | null;
  update_user_id: number | null;
  update_user_name: string | null;
  create_org_id: number | null;
  create_org_name: string | null;
  is_delete: number;
  /** The automatic urging ladder (JSON taskUrgePlanSchema, migration 0017); null: none. */
  urge_plan: string | null;
  /** 逐级审核 (0/1, migration 0023): records count upward once the level above passed them. */
  level_review: number;
};

export type DiyTaskFormTable = {
  id: number;
  task_id: number;
  table_id: number;
  period_id: number | null;
  order_no: number;
};

export type DiyTaskReceiverTable = {
  id: number;
  tenant_id: number;
  task_id: number;
  parent_id: number | null;
  org_id: number;
  org_name: string;
  due_time: string;
  state: string;
  transfer_from_id: number | null;
  transfer_reason: string | null;
  create_time: string;
  create_user_id: number | null;
  create_user_name: string | null;
};

export type DiyTaskEventTable = {
  id: number;
  tenant_id: number;
  task_id: number;
  receiver_id: number | null;
  action: string;
  org_name: string | null;
  targets: string;
  comment: string | null;
  user_id: number | null;
  user_name: string | null;
  create_time: string;
};

/** A unit's zero report for one form of a task (migration 0018): nothing to report, with a note. */
export type DiyTaskZeroTable = {
  id: number;
  tenant_id: number;
  task_id: number;
  receiver_id: number;
  table_id: number;
  note: string;
  user_id: number | null;
  user_name: string | null;
  create_time: string;
};

/** A scheduled task (计划任务, issue 19 §6): makes a task for each new period of its forms. */
export type DiyTaskScheduleTable = {
  id: number;
  tenant_id: number;
  title: string;
  table_ids: string;
  receivers: string;
  instructions: string;
  due_anchor: string;
  due_days: number;
  due_at: string;
  state: string;
  since_date: string;
  create_time: string;
  update_time: string | null;
  create_user_id: number;
  create_user_name: string | null;
  update_user_id: number | null;
  update_user_name: string | null;
  create_org_id: number | null;
  create_org_name: string | null;
  is_delete: number;
};

/** One period of a schedule: the task made, or why none was. Unique (schedule, period key). */
export type DiyTaskScheduleRunTable = {
  id: number;
  tenant_id: number;
  schedule_id: number;
  period_key: string;
  period_name: string;
  outcome: string;
  task_id: number | null;
  due_time: string | null;
  code: string | null;
  params: string | null;
  create_time: string;
};

/** A reminder sent for a task part (issue 19 §3, migration 0017): one row per channel and person reached. */
export type DiyTaskUrgeTable = {
  id: number;
  tenant_id: number;
  task_id: number;
  receiver_id: number;
  org_name: string;
  step: string;
  channel: string;
  outcome: string;
  user_id: number | null;
  user_name: string | null;
  phone: string | null;
  notice_id: number | null;
  message: string | null;
  claim: string | null;
  sender_id: number | null;
  sender_name: string | null;
  create_time: string;
  update_time: string | null;
  /** SMS: times handed to the sender (migration 0028). */
  attempts: number;
  last_error: string | null;
  /** A failed SMS tried again at this time by the ladder job; null: not again. */
  retry_at: string | null;
};

/** A step of a task's level-by-level review (migration 0023): one level passing or returning one record. */
export type DiyTaskReviewTable = {
  id: number;
  tenant_id: number;
  task_id: number;
  table_id: number;
  record_id: number;
  /** The submission judged: the id of the record's latest submit / zero / import step in diy_record_history. */
  submission_id: number;
  filer_receiver_id: number;
  /** The reviewing receiver; null: the task's creating unit (the last level). */
  reviewer_receiver_id: number | null;
  /** Depth of the reviewing level: 0 the creating unit, 1 the top receivers … */
  level: number;
  org_name: string | null;
  action: string;
  comment: string | null;
  user_id: number | null;
  user_name: string | null;
  create_time: string;
};
/** Word documents (migration 0026, docs/word-documents.md). */
export type DiyWordTemplateTable = {
  id: number;
  tenant_id: number;
  table_id: number;
  name: string;
  file_id: number;
  placeholders: string;
  remark: string | null;
  create_time: string;
  create_user_id: number;
  create_user_name: string | null;
  create_org_id: number | null;
  is_delete: number;
};
export type DiyWordOutputTable = {
  id: number;
  tenant_id: number;
  template_id: number;
  kind: string;
  file_id: number;
  doc_count: number;
  record_id: number | null;
  period_id: number | null;
  create_time: string;
  create_user_id: number;
  create_user_name: string | null;
};
