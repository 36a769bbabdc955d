import type { FastifyInstance } from 'fastify';
import { dataTableName } from '../src/platform/diy/data-table.ts';

/** The seeded demo district's tenant. */
export const SEEDED_TENANT = 1_300_000_000_001;

/**
 * Records and periods of the seeded district's forms written straight into the database, for tests that check
 * figures worked out by hand (roll-ups, query reports, dashboards). `load()` (in beforeAll, once the app is
 * built) fills `forms` (id by title) and `orgs` (id by code); ids are taken from `firstId` on, so that files
 * writing side by side into one app never meet.
 */
export function seededRecords(app: () => FastifyInstance, firstId: number) {
  let nextId = firstId;
  const forms: Record<string, number> = {};
  const orgs: Record<string, number> = {};
  return {
    forms,
    orgs,
    /** An id not used by the seeds or by any other record written here. */
    newId: () => nextId++,
    async load(): Promise<void> {
      const db = app().ctx.db;
      const formRows = await db.selectFrom('diy_table').select(['id', 'title']).execute();
      Object.assign(forms, Object.fromEntries(formRows.map((r) => [r.title, r.id])));
      const orgRows = await db.selectFrom('sys_org').select(['id', 'code']).execute();
      Object.assign(orgs, Object.fromEntries(orgRows.map((r) => [r.code, r.id])));
    },
    /** A record of `formId` filed by the org with code `orgCode`; `values` by field id, `extra` by column. */
    async record(
      formId: number,
      orgCode: string,
      status: number,
      values: Record<string, unknown>,
      extra: Record<string, unknown> = {},
    ): Promise<void> {
      const columns = Object.fromEntries(Object.entries(values).map(([k, v]) => [`f_${k}`, v]));
      await app()
        .ctx.db.insertInto(dataTableName(formId) as 'diy_table')
        .values({
          id: nextId++,
          tenant_id: SEEDED_TENANT,
          version: 1,
          status,
          create_time: '2025-05-03 10:00:00',
          create_user_id: 1,
          create_user_name: 'test',
          is_delete: 0,
          create_org_id: orgs[orgCode],
          create_org_name: orgCode,
          is_zero: 0,
          late: 0,
          ...columns,
          ...extra,
        } as never)
        .execute();
    },
    /** An open period of `formId` (due on its last day); returns its id. */
    async period(formId: number, key: string, start: string, end: string): Promise<number> {
      const id = nextId++;
      await app()
        .ctx.db.insertInto('diy_table_period')
        .values({
          id,
          tenant_id: SEEDED_TENANT,
          table_id: formId,
          period_key: key,
          name: key,
          start_date: start,
          end_date: end,
          due_date: end,
          grace_until: null,
          reopen_until: null,
          version: 1,
          closed: 0,
          close_time: null,
          close_user_name: null,
          create_time: '2025-01-01 00:00:00',
          create_user_id: null,
          create_user_name: null,
          update_time: null,
        })
        .execute();
      return id;
    },
  };
}
