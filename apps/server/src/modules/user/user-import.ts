import { randomBytes } from 'node:crypto';
import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { BUSINESS_ERRORS, type BusinessErrorCode, VALIDATION_MESSAGES } from '@shuzhi/contracts/errors';
import { format, type Locale } from '@shuzhi/contracts/i18n';
import {
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_ROWS,
  type UserImportColumn,
  type UserImportError,
  type UserImportResult,
  userAddInputSchema,
} from '@shuzhi/contracts/user';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { orgInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { areaFieldsOf, followOrgArea, orgAreaFields } from '../../platform/org/org-area.ts';
import { openWorkbook, type SheetCell, sheetRows } from '../../platform/xlsx/sheet-read.ts';
import type { XlsxCell } from '../../platform/xlsx/sheet-write.ts';
import { workbookBuffer, workbookStream, XLSX_TYPE } from '../../platform/xlsx/xlsx-write.ts';
import { WORKBOOK_LIMITS, type ZipLimits } from '../../platform/xlsx/zip-read.ts';
import { defaultPassword, scopeOf } from './user-admin.service.ts';
import { IMPORT_LABELS, IMPORT_REQUIRED, USER_LABELS } from './user-labels.ts';

export const USER_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The zip of an upload: 5,000 rows of user text unpack to a few MB; more than 200 MB is a bomb (F1031). */
const USER_WORKBOOK_LIMITS: ZipLimits = { ...WORKBOOK_LIMITS, unpacked: 200 * 1024 * 1024 };
/** Rows per multi-row INSERT: ~35 columns × 200 stays far below both dialects' parameter limits. */
const INSERT_BATCH = 200;
const REPORT_TTL_SECONDS = 30 * 60;
const reportKey = (id: string) => `userImportReport:${id}`;
const TEMPLATE_TITLE = { 'zh-CN': '账号导入模板', en: 'User import template', 'zh-TW': '帳號匯入範本' };
const REPORT_TITLE = { 'zh-CN': '账号导入错误报告', en: 'User import errors', 'zh-TW': '帳號匯入錯誤報告' };
const SHEETS = {
  users: { 'zh-CN': '账号', en: 'Users', 'zh-TW': '帳號' },
  orgs: { 'zh-CN': '机构编码', en: 'Org codes', 'zh-TW': '機構編碼' },
  positions: { 'zh-CN': '职位编码', en: 'Position codes', 'zh-TW': '職位編碼' },
  roles: { 'zh-CN': '角色编码', en: 'Role codes', 'zh-TW': '角色編碼' },
  notes: { 'zh-CN': '填写说明', en: 'Notes', 'zh-TW': '填寫說明' },
};
const CODE = { 'zh-CN': '编码', en: 'Code', 'zh-TW': '編碼' };
const NAME = { 'zh-CN': '名称', en: 'Name', 'zh-TW': '名稱' };
const NOTES: Record<Locale, string[]> = {
  'zh-CN': [
    '带 * 的列必填；每行一个账号，第一行为表头，请勿修改表头。',
    '账号：字母开头，5–16 位字母、数字或下划线，全系统唯一。',
    '机构编码、职位编码、角色编码见其他工作表；多个角色编码用逗号分隔。',
    '账号类型：777 普通账号（默认）或 666 会员；性别：男/女 或 1/2。',
    '新账号的密码为系统默认密码，首次登录须修改。',
  ],
  en: [
    'Columns marked * are required; one user per row below the header; do not change the header.',
    'Account: a letter, then 4–15 letters, digits or underscores; unique in the whole system.',
    'Org, position and role codes are listed on the other sheets; separate several role codes by commas.',
    'Account type: 777 normal (default) or 666 member; gender: Male/Female or 1/2.',
    'New users get the default password and must change it at their first sign-in.',
  ],
  'zh-TW': [
    '帶 * 的欄必填；每列一個帳號，第一列為表頭，請勿修改表頭。',
    '帳號：字母開頭，5–16 位字母、數字或底線，全系統唯一。',
    '機構編碼、職位編碼、角色編碼見其他工作表；多個角色編碼用逗號分隔。',
    '帳號類型：777 普通帳號（預設）或 666 會員；性別：男/女 或 1/2。',
    '新帳號的密碼為系統預設密碼，首次登入須修改。',
  ],
};

function disposition(title: string): string {
  const stamp = formatDateTime().replace(/\D/g, '');
  return `attachment; filename="users_${stamp}.xlsx"; filename*=UTF-8''${encodeURIComponent(`${title}_${stamp}.xlsx`)}`;
}

function sendBuffer(reply: FastifyReply, buffer: Buffer, title: string): FastifyReply {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', disposition(title))
    .send(buffer);
}

async function tenantCodes(ctx: AppContext, user: AuthUser) {
  const [orgs, positions, roles] = await Promise.all([
    ctx.db
      .selectFrom('sys_org')
      .select(['id', 'code', 'name', 'full_names'])
      .where('tenant_id', '=', user.tenantId)
      .where('is_delete', '=', 0)
      .orderBy('full_ids')
      .execute(),
    ctx.db
      .selectFrom('sys_pos')
      .select(['id', 'code', 'name'])
      .where('tenant_id', '=', user.tenantId)
      .where('is_delete', '=', 0)
      .orderBy('order_no')
      .execute(),
    ctx.db
      .selectFrom('sys_role')
      .select(['id', 'code', 'name'])
      .where('tenant_id', '=', user.tenantId)
      .where('is_delete', '=', 0)
      .orderBy('order_no')
      .execute(),
  ]);
  return { orgs, positions, roles };
}

/** The template: the header row, code sheets of the orgs in the caller's scope, positions and roles, and notes. */
export async function importTemplate(
  ctx: AppContext,
  user: AuthUser,
  reply: FastifyReply,
  locale: Locale,
): Promise<FastifyReply> {
  const view = await scopeOf(ctx, user);
  const { orgs, positions, roles } = await tenantCodes(ctx, user);
  const bold = { bold: true };
  const out = workbookStream(ctx.log, async (book) => {
    const sheet = await book.sheet({
      name: SHEETS.users[locale],
      frozenRows: 1,
      columns: USER_IMPORT_COLUMNS.map((column) => ({
        width: Math.max(12, IMPORT_LABELS[column][locale].length * 2 + 4),
        // Text cells: phone and ID numbers must not turn into numbers (an 18-digit number loses digits).
        style: { numFmt: '@' },
      })),
    });
    await sheet.rows(
      [
        USER_IMPORT_COLUMNS.map(
          (column) => `${IMPORT_REQUIRED.has(column) ? '*' : ''}${IMPORT_LABELS[column][locale]}`,
        ),
      ],
      bold,
    );
    const codes = async (name: string, rows: { code: string; name: string }[], width = 40) => {
      const s = await book.sheet({ name, columns: [{ width: 24 }, { width }] });
      await s.rows([[CODE[locale], NAME[locale]]], bold);
      await s.rows(rows.map((row) => [row.code, row.name]));
    };
    await codes(
      SHEETS.orgs[locale],
      orgs.filter((o) => orgInScope(view, o.id)).map((o) => ({ code: o.code, name: o.full_names || o.name })),
      60,
    );
    await codes(SHEETS.positions[locale], positions);
    await codes(SHEETS.roles[locale], roles);
    const notes = await book.sheet({ name: SHEETS.notes[locale], columns: [{ width: 100 }] });
    await notes.rows(NOTES[locale].map((line) => [line]));
    await book.end();
  });
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', disposition(TEMPLATE_TITLE[locale]))
    .send(out);
}

/** Header text → column: the labels in any language (with or without the `*`), or the field names. */
const HEADER_COLUMNS = new Map<string, UserImportColumn>();
for (const column of USER_IMPORT_COLUMNS) {
  HEADER_COLUMNS.set(column.toLowerCase(), column);
  for (const text of Object.values(IMPORT_LABELS[column])) HEADER_COLUMNS.set(text.toLowerCase(), column);
}

const cellText = (value: SheetCell | undefined): string =>
  value === null || value === undefined ? '' : String(value).trim();

type SheetRow = { row: number; values: Partial<Record<UserImportColumn, string>> };

/**
 * Reads the first sheet of the workbook at `path` (an upload, at most USER_IMPORT_MAX_BYTES) as a stream
 * (platform/xlsx): F1031 for a zip bomb, D1010 when it is no workbook, lacks a required column or has too
 * many rows. Answers the mapped rows and every line as read, for the error report.
 */
async function readSheet(path: string) {
  const lines: { row: number; cells: SheetCell[] }[] = [];
  try {
    for await (const line of sheetRows(await openWorkbook(path, USER_WORKBOOK_LIMITS))) {
      if (line.row !== 1 && line.cells.every((c) => cellText(c) === '')) continue;
      lines.push(line);
      // The header and at most USER_IMPORT_MAX_ROWS filled lines: the rest is not read.
      if (lines.length > USER_IMPORT_MAX_ROWS + 1) throw new AppError('D1010');
    }
  } catch (error) {
    if (error instanceof AppError && error.code === 'F1030') throw new AppError('D1010');
    throw error;
  }
  const columns = new Map<number, UserImportColumn>();
  const header = lines[0]?.row === 1 ? lines[0].cells : [];
  header.forEach((cell, index) => {
    const column = HEADER_COLUMNS.get(cellText(cell).replace(/^\*/, '').trim().toLowerCase());
    if (column) columns.set(index, column);
  });
  const present = new Set(columns.values());
  for (const required of IMPORT_REQUIRED) if (!present.has(required)) throw new AppError('D1010');
  const rows: SheetRow[] = [];
  for (const line of lines) {
    if (line.row === 1) continue;
    const values: SheetRow['values'] = {};
    let any = false;
    for (const [index, column] of columns) {
      const text = cellText(line.cells[index]);
      if (text !== '') {
        values[column] = text;
        any = true;
      }
    }
    if (any) rows.push({ row: line.row, values });
    if (rows.length > USER_IMPORT_MAX_ROWS) throw new AppError('D1010');
  }
  const width = Math.max(0, ...lines.map((l) => l.cells.length), ...[...columns.keys()].map((k) => k + 1));
  return { lines, rows, width };
}

/** The uploaded sheet again, with an error column in red after its last column (kept for the uploader). */
function errorReport(
  lines: { row: number; cells: SheetCell[] }[],
  width: number,
  errors: UserImportError[],
  locale: Locale,
): Promise<Buffer> {
  const red = { color: 'FFC00000' };
  const byRow = new Map(errors.map((e) => [e.row, e.messages.join('；')]));
  return workbookBuffer(async (book) => {
    const sheet = await book.sheet({
      name: SHEETS.users[locale],
      frozenRows: 1,
      columns: [...Array.from({ length: width }, () => ({ width: 16 })), { width: 60 }],
    });
    let next = 1;
    for (const line of lines) {
      if (line.row > next) await sheet.rows(Array.from({ length: line.row - next }, () => []));
      const cells: XlsxCell[] = Array.from({ length: width }, (_, i) => line.cells[i] ?? null);
      if (line.row === 1) cells.push({ value: USER_LABELS.error[locale], style: { ...red, bold: true } });
      else if (byRow.has(line.row)) cells.push({ value: byRow.get(line.row), style: red });
      await sheet.rows([cells], line.row === 1 ? { bold: true } : undefined);
      next = line.row + 1;
    }
    await book.end();
  });
}

const SEX: Record<string, 1 | 2> = { '1': 1, '2': 2, 男: 1, 女: 2, male: 1, female: 2, m: 1, f: 2 };

function issueText(issue: z.core.$ZodIssue, locale: Locale): string {
  const key = String(issue.path[0] ?? '') as UserImportColumn | 'orgId' | 'posId' | 'roleIdList';
  const label =
    key === 'orgId'
      ? IMPORT_LABELS.orgCode
      : key === 'posId'
        ? IMPORT_LABELS.posCode
        : key === 'roleIdList'
          ? IMPORT_LABELS.roleCodes
          : (IMPORT_LABELS[key as UserImportColumn] ?? USER_LABELS.error);
  const m = VALIDATION_MESSAGES;
  const field = label[locale];
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)) {
    return format(m.required[locale], { field });
  }
  if (issue.code === 'too_big') return format(m.tooLong[locale], { field, max: String(issue.maximum) });
  return format(m.invalid[locale], { field });
}

const business = (code: BusinessErrorCode, locale: Locale) => BUSINESS_ERRORS[code][locale];

/** Adds the checked users with their roles in one transaction; D1006 when an account was taken meanwhile. */
async function insertUsers(
  ctx: AppContext,
  user: AuthUser,
  valid: { input: z.output<typeof userAddInputSchema> }[],
): Promise<number> {
  const { hash } = await defaultPassword(ctx);
  const now = formatDateTime();
  // Area levels the file leaves blank are copied from each user's org chain, as the add form does.
  const chains = await orgAreaFields(
    ctx.db,
    valid.map(({ input }) => input.orgId),
  );
  // One hash for the whole file: every new user gets the same, publicly configured default password anyway,
  // and hashing thousands of times would take minutes.
  const records = valid.map(({ input }) => {
    const id = ctx.newId();
    return {
      user: {
        id,
        tenant_id: user.tenantId,
        account: input.account,
        password: hash,
        real_name: input.realName,
        nick_name: input.nickName ?? null,
        sex: input.sex ?? null,
        phone: input.phone ?? null,
        email: input.email ?? null,
        id_card_num: input.idCardNum ?? null,
        address: input.address ?? null,
        account_type: input.accountType,
        org_id: input.orgId,
        pos_id: input.posId ?? null,
        enterprise: input.enterprise ?? null,
        ...followOrgArea(
          areaFieldsOf({
            area: input.area ?? null,
            area_code: input.areaCode ?? null,
            street: input.street ?? null,
            street_code: input.streetCode ?? null,
            community: input.community ?? null,
            community_code: input.communityCode ?? null,
            wangge: input.wangge ?? null,
            wangge_code: input.wanggeCode ?? null,
            weiwangge: input.weiwangge ?? null,
            weiwangge_code: input.weiwanggeCode ?? null,
          }),
          null,
          chains.get(input.orgId) ?? areaFieldsOf({}),
        ),
        status: input.status,
        order_no: input.orderNo,
        remark: input.remark ?? null,
        is_def_pwd: 1,
        login_fail_count: 0,
        create_time: now,
        create_user_id: user.userId,
        create_user_name: user.realName,
        is_delete: 0,
      },
      roles: [...new Set(input.roleIdList)].map((roleId) => ({
        id: ctx.newId(),
        user_id: id,
        role_id: roleId,
      })),
    };
  });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < records.length; i += INSERT_BATCH) {
        const batch = records.slice(i, i + INSERT_BATCH);
        await trx
          .insertInto('sys_user')
          .values(batch.map((r) => r.user))
          .execute();
        const links = batch.flatMap((r) => r.roles);
        if (links.length > 0) await trx.insertInto('sys_user_role').values(links).execute();
      }
    });
  } catch (error) {
    const e = error as { code?: string };
    // Someone took one of the accounts meanwhile: nothing was written; the admin uploads again.
    if (e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw new AppError('D1006', { field: USER_LABELS.account, value: '' });
    }
    throw error;
  }
  return records.length;
}

/**
 * Imports users from an uploaded template (the file at `path`): every row is checked (format, codes, scope,
 * unique account in the system and in the file); the valid rows go in one transaction; the refused ones come
 * back with their reasons and an error report (the uploaded sheet with an error column) kept for half an hour.
 */
export async function importUsers(
  ctx: AppContext,
  user: AuthUser,
  path: string,
  locale: Locale,
): Promise<UserImportResult> {
  const { lines, rows, width } = await readSheet(path);
  const view = await scopeOf(ctx, user);
  const { orgs, positions, roles } = await tenantCodes(ctx, user);
  const orgByCode = new Map(orgs.map((o) => [o.code, o]));
  const posByCode = new Map(positions.map((p) => [p.code, p]));
  const roleByCode = new Map(roles.map((r) => [r.code, r]));
  const accounts = rows.flatMap((r) => (r.values.account ? [r.values.account] : []));
  const taken = new Set<string>();
  for (let i = 0; i < accounts.length; i += 500) {
    const found = await ctx.db
      .selectFrom('sys_user')
      .select('account')
      .where('account', 'in', accounts.slice(i, i + 500))
      .where('is_delete', '=', 0)
      .execute();
    for (const row of found) taken.add(row.account);
  }

  const errors: UserImportError[] = [];
  const valid: { input: z.output<typeof userAddInputSchema> }[] = [];
  const seen = new Set<string>();
  for (const { row, values } of rows) {
    const messages: string[] = [];
    const unknown = (column: UserImportColumn, value: string) =>
      messages.push(`${IMPORT_LABELS[column][locale]}“${value}”：${business('D1002', locale)}`);
    let orgId: number | undefined;
    if (values.orgCode) {
      const org = orgByCode.get(values.orgCode);
      if (!org) unknown('orgCode', values.orgCode);
      else if (!orgInScope(view, org.id)) messages.push(`${values.orgCode}：${business('D2003', locale)}`);
      else orgId = org.id;
    }
    let posId: number | null = null;
    if (values.posCode) {
      const pos = posByCode.get(values.posCode);
      if (!pos) unknown('posCode', values.posCode);
      else posId = pos.id;
    }
    const roleIdList: number[] = [];
    for (const code of (values.roleCodes ?? '').split(/[,，;；\s]+/).filter(Boolean)) {
      const role = roleByCode.get(code);
      if (!role) unknown('roleCodes', code);
      else roleIdList.push(role.id);
    }
    let sex: 1 | 2 | null = null;
    if (values.sex) {
      sex = SEX[values.sex.toLowerCase()] ?? null;
      if (sex === null)
        messages.push(format(VALIDATION_MESSAGES.invalid[locale], { field: IMPORT_LABELS.sex[locale] }));
    }
    const accountType = values.accountType ? Number(values.accountType) : ACCOUNT_TYPE.normal;
    const parsed = userAddInputSchema.safeParse({
      account: values.account,
      realName: values.realName,
      nickName: values.nickName ?? null,
      sex,
      phone: values.phone ?? null,
      email: values.email ?? null,
      idCardNum: values.idCardNum ?? null,
      address: values.address ?? null,
      accountType,
      // A code that did not resolve was reported above; 1 keeps the schema from reporting it twice.
      orgId: orgId ?? (values.orgCode ? 1 : undefined),
      posId,
      enterprise: values.enterprise ?? null,
      area: values.area ?? null,
      areaCode: values.areaCode ?? null,
      street: values.street ?? null,
      streetCode: values.streetCode ?? null,
      community: values.community ?? null,
      communityCode: values.communityCode ?? null,
      wangge: values.wangge ?? null,
      wanggeCode: values.wanggeCode ?? null,
      weiwangge: values.weiwangge ?? null,
      weiwanggeCode: values.weiwanggeCode ?? null,
      orderNo: values.orderNo ?? 100,
      remark: values.remark ?? null,
      roleIdList,
    });
    if (!parsed.success) for (const issue of parsed.error.issues) messages.push(issueText(issue, locale));
    const account = values.account;
    if (account && (taken.has(account) || seen.has(account))) {
      messages.push(
        format(business('D1006', locale), { field: USER_LABELS.account[locale], value: account }),
      );
    }
    if (account) seen.add(account);
    if (messages.length > 0 || !parsed.success || orgId === undefined) {
      errors.push({ row, messages: [...new Set(messages)] });
    } else {
      valid.push({ input: parsed.data });
    }
  }

  const imported = valid.length > 0 ? await insertUsers(ctx, user, valid) : 0;

  let errorReportId: string | null = null;
  if (errors.length > 0) {
    const report = await errorReport(lines, width, errors, locale);
    errorReportId = randomBytes(16).toString('base64url');
    await ctx.cache.set(
      reportKey(errorReportId),
      { userId: user.userId, data: report.toString('base64') },
      REPORT_TTL_SECONDS,
    );
  }
  return { total: rows.length, imported, failed: errors.length, errors, errorReportId };
}

/** The error report of an import, to the admin who uploaded it; D1002 once it has expired. */
export async function sendImportReport(
  ctx: AppContext,
  user: AuthUser,
  reply: FastifyReply,
  id: string,
  locale: Locale,
): Promise<FastifyReply> {
  const report = await ctx.cache.get<{ userId: number; data: string }>(reportKey(id));
  if (!report || report.userId !== user.userId) throw new AppError('D1002');
  return sendBuffer(reply, Buffer.from(report.data, 'base64'), REPORT_TITLE[locale]);
}
