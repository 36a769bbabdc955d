import { validateDesign } from '@shuzhi/contracts/diy-design-check';
import { type FormDesign, formDesignSchema } from '@shuzhi/contracts/diy-form';
import { STATUS } from '@shuzhi/contracts/envelope';
import { sql } from 'kysely';
import type { Dialect } from '../../platform/db/db.ts';
import { publishColumns } from '../../platform/diy/data-table.ts';
import { seedFormRecords } from './seed-form-records.ts';
import { insertMany, SEED_USER, type SeedRun } from './seed-kit.ts';
import type { SeedAudience, SeedForm } from './types.ts';

/** Advisory lock key of the demo-form seeding (PostgreSQL). */
const SEED_FORMS_LOCK = 7_424_300_509;

export type FormSeedScope = {
  tenantId: number;
  orgs: Map<string, { id: number }>;
  users: Map<string, number>;
};

/** A seed account as a form's reviewer or a record's filer. */
export type SeedPerson = {
  id: number;
  account: string;
  real_name: string;
  org_id: number | null;
  org_name: string | null;
  region_code: string | null;
};

/** What the demo forms refer to by natural key (org codes, accounts, dict codes), resolved once. */
export type FormLookups = {
  orgId(code: string, what: string): number;
  person(account: string, what: string): SeedPerson;
  dictOptions: Map<string, Set<string>>;
  /** Orgs that records are filed on behalf of, by code. */
  orgNames: Map<string, { id: number; name: string; region_code: string | null }>;
};

/**
 * Form categories by name (top level) and demo forms by title (deleted ones count: a form an admin removed
 * stays removed). A new form is published as the designer publishes (the design checked by the designer's
 * rules, `publishColumns` creating its data table, a version row) and gets its records
 * (seed-form-records.ts).
 * Nothing is read when both lists are empty (databases before migration 0009).
 */
export async function seedForms(run: SeedRun, scope: FormSeedScope): Promise<void> {
  const { trx, ctx, data, report } = run;
  if (data.formCategories.length === 0 && data.forms.length === 0) return;
  const { tenantId } = scope;
  // Forms have no unique natural key in the schema: processes starting together on PostgreSQL take turns
  // here, so the second one sees the first one's forms once it committed.
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${SEED_FORMS_LOCK})`.execute(trx);
  const categories = await seedFormCategories(run, tenantId);
  if (data.forms.length === 0) return;

  const titles = new Set(
    (await trx.selectFrom('diy_table').select('title').where('tenant_id', '=', tenantId).execute()).map(
      (f) => f.title,
    ),
  );
  const missing = data.forms.filter((f) => !titles.has(f.title));
  report.diy_table = (report.diy_table ?? 0) + missing.length;
  if (missing.length === 0) return;
  const { dialect } = ctx;
  if (!dialect) throw new Error('Seed forms: the database dialect is needed to publish them');

  const lookups = await formLookups(run, scope, missing);
  for (const form of missing) await seedForm(run, scope, lookups, dialect, form, categories);
}

/**
 * Top-level categories by name; answers every category name with its id, or null for a deleted one (an
 * admin removed it: a new form does not go into it).
 */
async function seedFormCategories(run: SeedRun, tenantId: number): Promise<Map<string, number | null>> {
  const { trx, data, base, report } = run;
  const categoryRows = await trx
    .selectFrom('diy_table_classify')
    .select(['id', 'name', 'is_delete'])
    .where('tenant_id', '=', tenantId)
    .where('pid', '=', 0)
    .orderBy('is_delete')
    .execute();
  const categories = new Map<string, number | null>();
  for (const c of categoryRows) {
    if (!categories.has(c.name)) categories.set(c.name, c.is_delete === 0 ? c.id : null);
  }
  const categoryInserts: Record<string, unknown>[] = [];
  for (const category of data.formCategories) {
    if (categories.has(category.name)) continue;
    const row = {
      ...base(),
      tenant_id: tenantId,
      pid: 0,
      name: category.name,
      icon: category.icon ?? null,
      order_no: category.orderNo,
      status: STATUS.enabled,
      remark: category.remark ?? null,
      create_org_id: null,
      create_org_name: null,
    };
    categories.set(category.name, row.id);
    categoryInserts.push(row);
  }
  await insertMany(trx, 'diy_table_classify', categoryInserts, report);
  return categories;
}

async function formLookups(run: SeedRun, scope: FormSeedScope, missing: SeedForm[]): Promise<FormLookups> {
  const { trx, data } = run;
  const { tenantId, orgs, users } = scope;
  const orgId = (code: string, what: string) => {
    const org = orgs.get(code);
    if (!org) throw new Error(`Seed ${what}: unknown org code ${code}`);
    return org.id;
  };
  const accounts = [
    ...new Set(missing.flatMap((f) => [...f.reviewerAccounts, ...f.records.map((r) => r.account)])),
  ];
  const people = new Map(
    (
      await trx
        .selectFrom('sys_user as u')
        .leftJoin('sys_org as o', 'o.id', 'u.org_id')
        .select(['u.id', 'u.account', 'u.real_name', 'u.org_id', 'o.name as org_name', 'o.region_code'])
        .where('u.tenant_id', '=', tenantId)
        .where('u.account', 'in', accounts)
        .execute()
    ).map((u) => [u.account, u]),
  );
  const person = (account: string, what: string) => {
    const found = people.get(account);
    if (!found || users.get(account) !== found.id)
      throw new Error(`Seed ${what}: unknown account ${account}`);
    return found;
  };
  const onBehalf = [
    ...new Set(missing.flatMap((f) => f.records.flatMap((r) => (r.orgCode ? [r.orgCode] : [])))),
  ];
  const orgNames = new Map(
    (onBehalf.length
      ? await trx
          .selectFrom('sys_org')
          .select(['id', 'code', 'name', 'region_code'])
          .where('tenant_id', '=', tenantId)
          .where('code', 'in', onBehalf)
          .execute()
      : []
    ).map((o) => [o.code, { id: o.id, name: o.name, region_code: o.region_code }]),
  );
  const dictOptions = new Map(data.dicts.map((d) => [d.code, new Set(d.items.map((i) => i.value))]));
  return { orgId, person, dictOptions, orgNames };
}

/** Publishes one demo form (version 1, its data table) and seeds its periods and records. */
async function seedForm(
  run: SeedRun,
  scope: FormSeedScope,
  lookups: FormLookups,
  dialect: Dialect,
  form: SeedForm,
  categories: Map<string, number | null>,
): Promise<void> {
  const { trx, ctx, base, report, now } = run;
  const { tenantId } = scope;
  const what = `form ${form.title}`;
  const design: FormDesign = formDesignSchema.parse(form.design);
  const problems = validateDesign(design);
  if (problems.length > 0) throw new Error(`Seed ${what}: design problems ${JSON.stringify(problems)}`);
  const categoryId = categories.get(form.category);
  if (categoryId === undefined) throw new Error(`Seed ${what}: unknown category ${form.category}`);
  const ownerId = lookups.orgId(form.ownerOrgCode, what);
  const reviewers = form.reviewerAccounts.map((a) => lookups.person(a, what));
  const audience = (a: SeedAudience) => ({
    all: a.all ?? false,
    orgIds: (a.orgCodes ?? []).map((code) => lookups.orgId(code, what)),
    roleIds: [],
    userIds: [],
    enterprises: a.enterprises ?? false,
  });
  const formId = ctx.newId();
  await trx
    .insertInto('diy_table')
    .values({
      ...(base() as object),
      id: formId,
      tenant_id: tenantId,
      title: form.title,
      report_type: 1,
      classify_id: categoryId,
      owner_org_id: ownerId,
      status: STATUS.enabled,
      pwd_hash: null,
      fillers: JSON.stringify(audience(form.fillers)),
      viewers: JSON.stringify(audience(form.viewers)),
      reviewer_ids: JSON.stringify(reviewers.map((r) => r.id)),
      needs_review: form.needsReview ? 1 : 0,
      draft_design: null,
      draft_revision: 1,
      version: 1,
      query: null,
      last_update_time: now,
      record_count: form.records.length,
      order_no: form.orderNo,
      remark: form.remark ?? null,
      period: form.periods ? JSON.stringify(form.periods.settings) : null,
      create_org_id: ownerId,
      create_org_name: null,
      delete_time: null,
      delete_user_name: null,
    } as never)
    .execute();
  // Publishing version 1: the data table and its columns, as the designer's publish does.
  const columns = await publishColumns(trx, dialect, ctx.newId, formId, design, 1, now);
  await trx
    .insertInto('diy_table_version')
    .values({
      id: ctx.newId(),
      table_id: formId,
      version: 1,
      design: JSON.stringify(design),
      publish_user_id: SEED_USER.id,
      publish_user_name: SEED_USER.name,
      publish_time: now,
    })
    .execute();
  report.diy_table_version = (report.diy_table_version ?? 0) + 1;
  await seedFormRecords(run, lookups, { tenantId, formId, form, design, columns, reviewer: reviewers[0] });
}
