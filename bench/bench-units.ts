import type { buildApp } from '../apps/server/src/app.ts';
import { formatDateTime } from '../apps/server/src/platform/db/time.ts';

/** Bench helpers shared by the task and efficiency benchmarks. */

type App = Awaited<ReturnType<typeof buildApp>>;

/** `count` communities spread over the demo district's streets; answers their ids. */
export async function addCommunities(app: App, count: number): Promise<number[]> {
  const db = app.ctx.db;
  const streets = await db.selectFrom('sys_org').selectAll().where('type', '=', 'street').execute();
  const now = formatDateTime();
  const ids: number[] = [];
  const rows = Array.from({ length: count }, (_, i) => {
    const street = streets[i % streets.length] as (typeof streets)[number];
    const id = app.ctx.newId();
    ids.push(id);
    return {
      id,
      tenant_id: street.tenant_id,
      pid: street.id,
      code: `BENCH${String(i).padStart(6, '0')}`,
      name: `压测社区${i + 1}`,
      type: 'community',
      level: street.level + 1,
      full_ids: `${street.full_ids},${id}`,
      full_names: `${street.full_names}/压测社区${i + 1}`,
      region_code: null,
      order_no: 1000 + i,
      status: 1,
      remark: null,
      create_time: now,
      update_time: null,
      create_user_id: null,
      create_user_name: null,
      update_user_id: null,
      update_user_name: null,
      is_delete: 0,
    };
  });
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('sys_org')
        .values(rows.slice(i, i + 500))
        .execute();
  });
  return ids;
}
