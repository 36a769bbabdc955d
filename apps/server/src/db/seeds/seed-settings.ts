import { STATUS, SYS_FLAG } from '@shuzhi/contracts/envelope';
import { insertMany, type SeedRun } from './seed-kit.ts';

/** Dictionary types by code and their items by value (global). */
export async function seedDicts(run: SeedRun): Promise<void> {
  const { trx, ctx, data, base, report } = run;
  const typeRows = await trx.selectFrom('sys_dict_type').select(['id', 'code']).execute();
  const types = new Map(typeRows.map((t) => [t.code, t.id]));
  const dataRows = await trx.selectFrom('sys_dict_data').select(['dict_type_id', 'value']).execute();
  const values = new Set(dataRows.map((d) => `${d.dict_type_id}/${d.value}`));
  const typeInserts: Record<string, unknown>[] = [];
  const dataInserts: Record<string, unknown>[] = [];
  for (const [index, dict] of data.dicts.entries()) {
    let typeId = types.get(dict.code);
    if (typeId === undefined) {
      typeId = ctx.newId();
      types.set(dict.code, typeId);
      typeInserts.push({
        ...base(),
        id: typeId,
        code: dict.code,
        name: dict.name,
        order_no: index + 1,
        status: STATUS.enabled,
        sys_flag: SYS_FLAG.yes,
        remark: dict.remark ?? null,
      });
    }
    for (const item of dict.items) {
      if (values.has(`${typeId}/${item.value}`)) continue;
      values.add(`${typeId}/${item.value}`);
      dataInserts.push({
        ...base(),
        dict_type_id: typeId,
        label: item.label,
        value: item.value,
        tag_type: item.tagType ?? null,
        style_setting: null,
        class_setting: null,
        ext_data: null,
        order_no: item.orderNo,
        status: STATUS.enabled,
        remark: item.remark ?? null,
      });
    }
  }
  await insertMany(trx, 'sys_dict_type', typeInserts, report);
  await insertMany(trx, 'sys_dict_data', dataInserts, report);
}

/** Configs by code (global). */
export async function seedConfigs(run: SeedRun): Promise<void> {
  const { trx, data, base, report } = run;
  const configCodes = new Set(
    (await trx.selectFrom('sys_config').select('code').execute()).map((c) => c.code),
  );
  await insertMany(
    trx,
    'sys_config',
    data.configs
      .filter((c) => !configCodes.has(c.code))
      .map((c) => ({
        ...base(),
        code: c.code,
        name: c.name,
        value: c.value,
        sys_flag: c.sysFlag,
        group_code: c.groupCode,
        order_no: c.orderNo,
        remark: c.remark ?? null,
      })),
    report,
  );
}

/**
 * Built-in jobs (the installation's, no tenant), each with its trigger when the job itself is new; the
 * scheduler gives running triggers their next run time.
 */
export async function seedJobs(run: SeedRun): Promise<void> {
  const { trx, data, base, report } = run;
  if (data.jobs.length === 0) return;
  const jobIds = new Set(
    (await trx.selectFrom('sys_job_detail').select('job_id').where('is_delete', '=', 0).execute()).map(
      (j) => j.job_id,
    ),
  );
  const newJobs = data.jobs.filter((j) => !jobIds.has(j.jobId));
  await insertMany(
    trx,
    'sys_job_detail',
    newJobs.map((j) => ({
      ...base(),
      job_id: j.jobId,
      group_name: j.groupName,
      description: j.description,
      create_type: 1,
      handler: j.jobId,
      timeout_seconds: j.timeoutSeconds,
      concurrent: 0,
    })),
    report,
  );
  await insertMany(
    trx,
    'sys_job_trigger',
    newJobs.map((j) => ({
      ...base(),
      job_id: j.jobId,
      trigger_id: j.trigger.triggerId,
      trigger_type: j.trigger.cron ? 'cron' : 'period',
      cron: j.trigger.cron ?? null,
      period_seconds: j.trigger.periodSeconds ?? null,
      description: j.trigger.description,
      status: 1,
      max_number_of_runs: 0,
      run_on_start: j.trigger.runOnStart ? 1 : 0,
      number_of_runs: 0,
      number_of_errors: 0,
    })),
    report,
  );
}
