import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushAudit } from '../src/platform/audit/audit.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

/** `batchUpdate` and `saveSysInfo` write sys_config outside the CRUD factory: they keep its field diffs. */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'superadmin')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown) =>
  authed(t.app, admin, { method: 'POST', url, payload: payload as object });

async function configRow(code: string) {
  return t.app.ctx.db
    .selectFrom('sys_config')
    .select(['id', 'value'])
    .where('code', '=', code)
    .where('is_delete', '=', 0)
    .executeTakeFirstOrThrow();
}

async function diffsOf(recordId: number) {
  await flushAudit(t.app.ctx);
  return t.app.ctx.db
    .selectFrom('sys_log_diff')
    .selectAll()
    .where('table_name', '=', 'sys_config')
    .where('record_id', '=', recordId)
    .orderBy('id')
    .execute();
}

const parsed = (json: string | null) =>
  json === null ? null : (JSON.parse(json) as Record<string, unknown>);

describe('sysConfig/batchUpdate diffs', () => {
  it('writes a field diff for each changed row, none for an unchanged one', async () => {
    const logout = await configRow('AutoLogoutTime');
    const watermark = await configRow('sys_watermark');
    const res = await post('/api/sysConfig/batchUpdate', [
      { code: 'AutoLogoutTime', value: '25' },
      { code: 'sys_watermark', value: watermark.value },
    ]);
    expect(body(res).code).toBe(200);

    const rows = await diffsOf(logout.id);
    expect(rows).toHaveLength(1);
    const [diff] = rows;
    expect(diff).toMatchObject({ operation: 'update', changed_fields: 'value', account: 'superadmin' });
    expect(diff?.trace_id).toBeTruthy();
    expect(parsed(diff?.before_data ?? null)).toMatchObject({ code: 'AutoLogoutTime', value: logout.value });
    expect(parsed(diff?.after_data ?? null)).toMatchObject({
      code: 'AutoLogoutTime',
      value: '25',
      updateUserName: expect.any(String),
    });
    expect(await diffsOf(watermark.id)).toHaveLength(0);
  });

  it('takes the last value of a code given twice, in one diff', async () => {
    const row = await configRow('sys_token_expire');
    const res = await post('/api/sysConfig/batchUpdate', [
      { code: 'sys_token_expire', value: '100' },
      { code: 'sys_token_expire', value: '200' },
    ]);
    expect(body(res).code).toBe(200);
    expect((await configRow('sys_token_expire')).value).toBe('200');
    const rows = await diffsOf(row.id);
    expect(rows).toHaveLength(1);
    expect(parsed(rows[0]?.after_data ?? null)).toMatchObject({ value: '200' });
  });

  it('leaves no diff when the batch is refused', async () => {
    const row = await configRow('sys_captcha');
    const refused = await post('/api/sysConfig/batchUpdate', [
      { code: 'sys_captcha', value: row.value === 'true' ? 'false' : 'true' },
      { code: 'no_such_code', value: 'x' },
    ]);
    expect(body(refused).code).toBe('D1002');
    expect((await configRow('sys_captcha')).value).toBe(row.value);
    expect(await diffsOf(row.id)).toHaveLength(0);
  });
});

describe('sysConfig/saveSysInfo diffs', () => {
  it('writes a diff for each changed field, and an add diff for a row it restores', async () => {
    const title = await configRow('sys_web_title');
    const copyright = await configRow('sys_web_copyright');
    const res = await post('/api/sysConfig/saveSysInfo', {
      webTitle: '差异测试平台',
      webCopyright: copyright.value ?? '',
    });
    expect(body(res).code).toBe(200);
    const rows = await diffsOf(title.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: 'update', changed_fields: 'value', account: 'superadmin' });
    expect(rows[0]?.trace_id).toBeTruthy();
    expect(parsed(rows[0]?.before_data ?? null)).toMatchObject({ code: 'sys_web_title', value: title.value });
    expect(parsed(rows[0]?.after_data ?? null)).toMatchObject({
      code: 'sys_web_title',
      value: '差异测试平台',
    });
    expect(await diffsOf(copyright.id)).toHaveLength(0);

    // A database that lost the ICP row gets it back as a built-in row, logged as an add.
    const icp = await configRow('sys_web_icp');
    await t.app.ctx.db.updateTable('sys_config').set({ is_delete: 1 }).where('id', '=', icp.id).execute();
    const restored = await post('/api/sysConfig/saveSysInfo', { webIcp: '沪ICP备12345678号' });
    expect(body(restored).code).toBe(200);
    const added = await configRow('sys_web_icp');
    expect(added.id).not.toBe(icp.id);
    const addRows = await diffsOf(added.id);
    expect(addRows).toHaveLength(1);
    expect(addRows[0]).toMatchObject({ operation: 'add', before_data: null });
    expect(addRows[0]?.changed_fields?.split(',')).toEqual(expect.arrayContaining(['code', 'value']));
    expect(parsed(addRows[0]?.after_data ?? null)).toMatchObject({
      code: 'sys_web_icp',
      value: '沪ICP备12345678号',
      sysFlag: 1,
      groupCode: 'Web',
    });
  });

  it('leaves no diff when the input is refused', async () => {
    const logo = await configRow('sys_web_logo');
    const before = (await diffsOf(logo.id)).length;
    const refused = await post('/api/sysConfig/saveSysInfo', { webLogo: 'javascript:alert(1)' });
    expect(body(refused).code).toBe(400);
    expect(await diffsOf(logo.id)).toHaveLength(before);
  });
});
