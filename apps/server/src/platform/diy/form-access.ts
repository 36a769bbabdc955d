import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { type FormDesign, formDesignSchema, RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import { NO_PERIOD, type PeriodSettings, periodSettingsSchema } from '@shuzhi/contracts/diy-period';
import { type RollupConfig, rollupConfigSchema } from '@shuzhi/contracts/diy-rollup';
import { type FormAudience, formAudienceSchema, type MyAuth } from '@shuzhi/contracts/diy-table';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Kysely, Transaction } from 'kysely';
import type { Database, DiyTableTable } from '../../db/schema.ts';
import { type DataScopeView, dataScopeOf, orgInScope, rowOrgIds } from '../access/data-scope.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { AppError } from '../errors/app-error.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Who may do what with a report form (docs/forms.md "Who sees what"). `formAuth` is the one function that
 * computes `myAuth` for lists and that the form and record routes ask before they allow or refuse, so what
 * the page offers is exactly what the server does.
 */

/** The caller as the audience rules see them. */
export type Caller = {
  user: AuthUser;
  /** The caller's org now (an admin may have moved them since the token was issued). */
  orgId: number | null;
  orgName: string | null;
  regionCode: string | null;
  /** Their org and extra orgs. */
  orgIds: readonly number[];
  /** Their org and extra orgs with every ancestor: an audience naming an org covers its subtree. */
  orgChain: ReadonlySet<number>;
  roleIds: ReadonlySet<number>;
  /** The caller's org is an enterprise: they fill for it, and see only its records. */
  enterprise: boolean;
  view: DataScopeView;
};

export async function loadCaller(ctx: AppContext, user: AuthUser, db: Db = ctx.db): Promise<Caller> {
  const current = await db
    .selectFrom('sys_user')
    .select(['org_id'])
    .where('id', '=', user.userId)
    .executeTakeFirst();
  const orgId = current ? current.org_id : user.orgId;
  const ext = await db
    .selectFrom('sys_user_ext_org')
    .select('org_id')
    .where('user_id', '=', user.userId)
    .execute();
  const orgIds = [...new Set([...(orgId ? [orgId] : []), ...ext.map((r) => r.org_id)])];
  const orgs = orgIds.length
    ? await db
        .selectFrom('sys_org')
        .select(['id', 'full_ids', 'type', 'name', 'region_code'])
        .where('id', 'in', orgIds)
        .where('is_delete', '=', 0)
        .execute()
    : [];
  const chain = new Set<number>();
  for (const org of orgs) for (const id of org.full_ids.split(',')) if (id) chain.add(Number(id));
  const own = orgs.find((o) => o.id === orgId);
  const roles = await db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', '=', user.userId)
    .where('r.status', '=', STATUS.enabled)
    .where('r.is_delete', '=', 0)
    .execute();
  const view = await dataScopeOf({ ...ctx, db: db as AppContext['db'] }, user);
  return {
    user,
    orgId: own ? own.id : null,
    orgName: own?.name ?? null,
    regionCode: own?.region_code ?? null,
    orgIds: orgs.map((o) => o.id),
    orgChain: chain,
    roleIds: new Set(roles.map((r) => r.id)),
    enterprise: own?.type === 'enterprise',
    view,
  };
}

const EMPTY_AUDIENCE: FormAudience = { all: false, orgIds: [], roleIds: [], userIds: [], enterprises: false };

export function parseAudience(text: string | null): FormAudience {
  if (!text) return EMPTY_AUDIENCE;
  try {
    const parsed = formAudienceSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : EMPTY_AUDIENCE;
  } catch {
    return EMPTY_AUDIENCE;
  }
}

/**
 * The orgs of the enabled users an audience names, itself or through a role: the units that can take a form
 * because one of their people may fill it (roll-up units, task receivers).
 */
export async function audienceUserOrgIds(
  db: Db,
  tenantId: number,
  audience: FormAudience,
): Promise<number[]> {
  if (audience.userIds.length === 0 && audience.roleIds.length === 0) return [];
  const rows = await db
    .selectFrom('sys_user as u')
    .select('u.org_id')
    .distinct()
    .where('u.tenant_id', '=', tenantId)
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled)
    .where((eb) =>
      eb.or([
        ...(audience.userIds.length ? [eb('u.id', 'in', audience.userIds)] : []),
        ...(audience.roleIds.length
          ? [
              eb(
                'u.id',
                'in',
                eb
                  .selectFrom('sys_user_role as ur')
                  .select('ur.user_id')
                  .where('ur.role_id', 'in', audience.roleIds),
              ),
            ]
          : []),
      ]),
    )
    .execute();
  return rows.flatMap((row) => (row.org_id === null ? [] : [Number(row.org_id)]));
}

export function parseIds(text: string | null): number[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is number => Number.isSafeInteger(v)) : [];
  } catch {
    return [];
  }
}

/** A form's period settings (not periodic when absent or unreadable). */
export function parsePeriodSettings(text: string | null): PeriodSettings {
  if (!text) return NO_PERIOD;
  try {
    const parsed = periodSettingsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : NO_PERIOD;
  } catch {
    return NO_PERIOD;
  }
}

/** A roll-up's config (null: not a roll-up, or unreadable). */
export function parseRollup(text: string | null): RollupConfig | null {
  if (!text) return null;
  try {
    const parsed = rollupConfigSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function parseDesign(text: string | null): FormDesign | null {
  if (!text) return null;
  try {
    const parsed = formDesignSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether the caller belongs to an audience (enterprise users only where the audience admits enterprises). */
export function inAudience(audience: FormAudience, caller: Caller): boolean {
  if (audience.userIds.includes(caller.user.userId)) return true;
  const inOrgs = audience.orgIds.some((id) => caller.orgChain.has(id));
  if (caller.enterprise) return audience.enterprises && (audience.all || inOrgs);
  if (audience.all || inOrgs) return true;
  return audience.roleIds.some((id) => caller.roleIds.has(id));
}

type FormFacts = Pick<
  DiyTableTable,
  | 'tenant_id'
  | 'status'
  | 'version'
  | 'owner_org_id'
  | 'create_user_id'
  | 'fillers'
  | 'viewers'
  | 'reviewer_ids'
  | 'needs_review'
>;

/** myAuth plus the roles behind it (the record routes narrow rows by them). */
export type FormAuth = MyAuth & {
  filler: boolean;
  viewer: boolean;
  reviewer: boolean;
  /** A form admin (diyTable:* holder) of a form whose owner org is in their data scope. */
  admin: boolean;
  enabled: boolean;
  published: boolean;
};

const hasAny = (user: AuthUser, prefix: string) => {
  for (const p of user.permissions) if (p.startsWith(prefix)) return true;
  return false;
};

/** What the caller may do with a form. */
export function formAuth(form: FormFacts, caller: Caller): FormAuth {
  const { user } = caller;
  const sameTenant = form.tenant_id === user.tenantId;
  const superAdmin = user.accountType === ACCOUNT_TYPE.superAdmin;
  const inScope =
    caller.view.all || orgInScope(caller.view, form.owner_org_id) || form.create_user_id === user.userId;
  const admin = (superAdmin || (sameTenant && inScope)) && hasAny(user, 'diyTable:');
  const enabled = form.status === STATUS.enabled;
  const published = form.version > 0;
  const filler = sameTenant && inAudience(parseAudience(form.fillers), caller);
  const viewer = sameTenant && inAudience(parseAudience(form.viewers), caller);
  const reviewer =
    sameTenant &&
    form.needs_review === 1 &&
    (parseIds(form.reviewer_ids).includes(user.userId) || user.permissions.has('diyReport:audit'));
  const open = enabled && published;
  // Admins still reach the records of a form they disabled; everyone else needs it enabled.
  const query = published && (admin || (enabled && (filler || viewer || reviewer)));
  return {
    filler,
    viewer,
    reviewer,
    admin,
    enabled,
    published,
    query,
    add: open && filler,
    update: open && filler,
    delete: open && (filler || admin),
    audit: open && reviewer,
    export: query && (viewer || reviewer || admin || user.permissions.has('diyReport:export')),
    import: open && filler,
    design: admin && user.permissions.has('diyTable:design'),
  };
}

/** The public part of a FormAuth (the wire's myAuth). */
export function myAuthOf(auth: FormAuth): MyAuth {
  return {
    query: auth.query,
    add: auth.add,
    update: auth.update,
    delete: auth.delete,
    audit: auth.audit,
    export: auth.export,
    import: auth.import,
    design: auth.design,
  };
}

/**
 * Which records the caller sees: `all`, or those of `orgIds` plus their own. Fillers see their own org's
 * records (an enterprise user: their enterprise's); viewers, reviewers and admins those of their data scope.
 */
export type RecordReach = { all: boolean; orgIds: number[]; userId: number };

export function recordReach(auth: FormAuth, caller: Caller): RecordReach {
  const orgIds = new Set<number>();
  if (auth.viewer || auth.reviewer || auth.admin) {
    if (caller.view.all) return { all: true, orgIds: [], userId: caller.user.userId };
    for (const id of rowOrgIds(caller.view)) orgIds.add(id);
  }
  if (auth.filler && caller.orgId) orgIds.add(caller.orgId);
  return { all: false, orgIds: [...orgIds], userId: caller.user.userId };
}

type RecordFacts = { create_org_id: number | null; create_user_id: number | null; status: number };

/** Whether a filler owns a record (their org's or their own). */
function fillerOwns(record: RecordFacts, caller: Caller): boolean {
  return (
    record.create_user_id === caller.user.userId ||
    (caller.orgId !== null && record.create_org_id === caller.orgId)
  );
}

function scopeAdmits(record: RecordFacts, caller: Caller): boolean {
  return (
    caller.view.all ||
    record.create_user_id === caller.user.userId ||
    orgInScope(caller.view, record.create_org_id)
  );
}

/** What the caller may do with one record they can see. */
export function recordCan(auth: FormAuth, caller: Caller, record: RecordFacts) {
  const owned = auth.filler && fillerOwns(record, caller);
  const approved = record.status === RECORD_STATUS.approved;
  const update = auth.update && owned && !approved;
  return {
    update,
    delete: auth.delete && !approved && (owned || (auth.admin && scopeAdmits(record, caller))),
    submit: update && record.status !== RECORD_STATUS.submitted,
    audit: auth.audit && record.status === RECORD_STATUS.submitted && scopeAdmits(record, caller),
  };
}

/** A live form of the caller's tenant (any tenant for the super admin), or F1000. */
export async function loadForm(db: Db, user: AuthUser, id: number): Promise<DiyTableTable> {
  let query = db.selectFrom('diy_table').selectAll().where('id', '=', id).where('is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('tenant_id', '=', user.tenantId);
  const form = await query.executeTakeFirst();
  if (!form) throw new AppError('F1000');
  return form;
}

/** The form and the caller's rights on it; F1000 when it is none of theirs to see at all. */
export async function formWithAuth(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  db: Db = ctx.db,
): Promise<{ form: DiyTableTable; auth: FormAuth; caller: Caller }> {
  const form = await loadForm(db, user, id);
  const caller = await loadCaller(ctx, user, db);
  const auth = formAuth(form, caller);
  if (!auth.admin && !auth.filler && !auth.viewer && !auth.reviewer) throw new AppError('F1000');
  return { form, auth, caller };
}

/** F1000 unless the caller administers the form (diyTable:* in scope). */
export async function adminForm(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  db: Db = ctx.db,
): Promise<{ form: DiyTableTable; auth: FormAuth; caller: Caller }> {
  const found = await formWithAuth(ctx, user, id, db);
  if (!found.auth.admin) throw new AppError('F1000');
  return found;
}

// Form passwords (SPEC §5): a verification is remembered per session and form.
export const PWD_OK_TTL_SECONDS = 12 * 3600;
export const PWD_OK_PREFIX = 'diy-pwd-ok:';
/** Keyed by form first, so that changing a form's password forgets every verification of that form. */
export const pwdOkKey = (sessionId: number, tableId: number) => `${PWD_OK_PREFIX}${tableId}:${sessionId}`;

/** F1007 when the form has a password the caller has not verified in this session (form admins pass). */
export async function assertPasswordVerified(
  ctx: AppContext,
  user: AuthUser,
  form: DiyTableTable,
  auth: FormAuth,
): Promise<void> {
  if (!form.pwd_hash || auth.admin) return;
  const ok = await ctx.cache.get<boolean>(pwdOkKey(user.sessionId, form.id));
  if (!ok) throw new AppError('F1007');
}
