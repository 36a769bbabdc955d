import { seedRollups } from '../../modules/diy-rollup/rollup-seed.ts';
import { CONFIGS } from './data/configs.ts';
import { DICTS } from './data/dicts.ts';
import { FORM_CATEGORIES, FORMS } from './data/forms.ts';
import { JOBS } from './data/jobs.ts';
import { MENUS } from './data/menus.ts';
import { ORGS } from './data/orgs.ts';
import { POSITIONS } from './data/positions.ts';
import { ROLES } from './data/roles.ts';
import { USER_GROUPS } from './data/user-groups.ts';
import { USERS } from './data/users.ts';
import { seedForms } from './seed-forms.ts';
import { type SeedContext, type SeedData, type SeedReport, startRun, type Trx } from './seed-kit.ts';
import { seedMenus } from './seed-menus.ts';
import { seedOrgs, seedPositions, seedTenant } from './seed-orgs.ts';
import { seedRoles } from './seed-roles.ts';
import { seedConfigs, seedDicts, seedJobs } from './seed-settings.ts';
import { seedUserGroups, seedUsers } from './seed-users.ts';

export { DEFAULT_TENANT_ID, type SeedData, type SeedReport } from './seed-kit.ts';

export const DEMO_DATA: SeedData = {
  orgs: ORGS,
  positions: POSITIONS,
  roles: ROLES,
  users: USERS,
  userGroups: USER_GROUPS,
  menus: MENUS,
  dicts: DICTS,
  configs: CONFIGS,
  jobs: JOBS,
  formCategories: FORM_CATEGORIES,
  forms: FORMS,
};

/**
 * Inserts the demo district where it is missing, by natural key (tenant code, org/position/role/user group
 * code, account, menu name, dict type code + value, config code), and never updates a row. Links (role→menu,
 * user→role, …) are added only together with a row inserted in the same run, so a link an admin removed
 * stays removed. Everything runs in one transaction.
 */
export async function seed(ctx: SeedContext, data: SeedData = DEMO_DATA): Promise<SeedReport> {
  return ctx.db.transaction().execute((trx) => seedIn(trx, ctx, data));
}

/** Each step inserts what is missing of one kind; later steps link to what earlier ones answer. */
async function seedIn(trx: Trx, ctx: SeedContext, data: SeedData): Promise<SeedReport> {
  const run = startRun(trx, ctx, data);
  const tenant = await seedTenant(run);
  const { tenantId } = tenant;
  const orgs = await seedOrgs(run, tenant);
  const positions = await seedPositions(run, tenantId);
  const menus = await seedMenus(run, tenant);
  const roles = await seedRoles(run, tenantId, orgs, menus);
  const users = await seedUsers(run, tenantId, orgs, positions, roles);
  await seedUserGroups(run, tenantId, users);
  await seedDicts(run);
  await seedConfigs(run);
  // Report forms: categories, then published demo forms with their records.
  await seedForms(run, { tenantId, orgs: orgs.orgs, users: users.userRows });
  // Roll-ups over the demo forms (none without them: a database seeded before the forms' tables has no forms).
  if (data.forms.length > 0) await seedRollups(trx, ctx, { tenantId, report: run.report });
  await seedJobs(run);
  return run.report;
}
