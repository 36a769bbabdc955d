import type { RollupData } from '@shuzhi/contracts/diy-rollup';
import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { WordFields, WordOutput, WordTemplate } from '@shuzhi/contracts/diy-word';
import type { PageResult } from '@shuzhi/contracts/envelope';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, authed, body, createTestApp, login, type TestApp } from './helpers.ts';
import { multipart } from './upload.fixture.ts';

/**
 * Issue 21 §3, Word documents: .docx templates built here with pizzip, uploaded per source (a form with a
 * sub-table, the seeded roll-up, a query report), refused when broken, a zip bomb or naming no field; documents
 * generated for a record, a period (a .zip) and as bulletins, read back by unzipping their XML and compared with
 * what the source's own pages answer; another tenant's ids and callers without the right refused.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gridstaff: string;
let forms: Record<string, number>;
const SAFE = '安全生产检查记录';
const POP = '社区人口月报';
const ROLLUP = '社区人口月报汇总';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const TYPES =
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ' +
  'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
  'Target="word/document.xml"/></Relationships>';

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A .docx whose paragraphs are `lines` (placeholders written as Word keeps them, in runs). */
function docx(lines: string[], extra: Record<string, Buffer | string> = {}): Buffer {
  const zip = new PizZip();
  zip.file('[Content_Types].xml', TYPES);
  zip.file('_rels/.rels', RELS);
  const paragraphs = lines
    .map((line) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(line)}</w:t></w:r></w:p>`)
    .join('');
  zip.file(
    'word/document.xml',
    `${XML}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`,
  );
  for (const [name, data] of Object.entries(extra)) zip.file(name, data);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The paragraphs' text of a .docx. */
function paragraphsOf(bytes: Buffer): string[] {
  const xml = new PizZip(bytes).file('word/document.xml')?.asText() ?? '';
  return [...xml.matchAll(/<w:p[ >].*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)]
      .map((m) => m[1])
      .join('')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

function upload(token: string, fields: Record<string, string>, data: Buffer, fileName = '模板.docx') {
  const { payload, headers } = multipart(fileName, data, 'application/octet-stream', fields);
  return authed(t.app, token, { method: 'POST', url: '/api/diyWord/upload', payload, headers });
}

async function uploaded(fields: Record<string, string>, data: Buffer): Promise<number> {
  const envelope = body<number>(await upload(admin, fields, data));
  expect(envelope.code, JSON.stringify(envelope)).toBe(200);
  return envelope.result as number;
}

async function download(token: string, fileId: number): Promise<Buffer> {
  const response = await authed(t.app, token, { method: 'GET', url: `/api/sysFile/download/${fileId}` });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  gridstaff = (await login(t.app, 'gridstaff')).accessToken;
  const rows = await t.app.ctx.db.selectFrom('diy_table').select(['id', 'title']).execute();
  forms = Object.fromEntries(rows.map((r) => [r.title, Number(r.id)]));
});

afterAll(async () => {
  await t?.close();
});

describe('templates', () => {
  it('gives the placeholder help of a form, with the sub-table as a loop', async () => {
    const fields = await api.ok<WordFields>(admin, 'GET', `/api/diyWord/fields?tableId=${forms[SAFE]}`);
    expect(fields.sourceKind).toBe('form');
    const names = fields.names.map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining(['$org', '$period', 'inspector', 'count', 'result']));
    const hazards = fields.names.find((n) => n.name === 'hazards');
    expect(hazards).toMatchObject({ kind: 'loop', label: '隐患明细' });
    expect(hazards?.inner.map((i) => i.name)).toEqual(['desc', 'level', 'deadline', 'fixed']);
    // The safety form has no periods; the population form's started periods are offered, newest first.
    expect(fields.periods).toEqual([]);
    const pop = await api.ok<WordFields>(admin, 'GET', `/api/diyWord/fields?tableId=${forms[POP]}`);
    expect(pop.periods.length).toBeGreaterThan(0);
    const rollup = await api.ok<WordFields>(admin, 'GET', `/api/diyWord/fields?tableId=${forms[ROLLUP]}`);
    expect(rollup.sourceKind).toBe('rollup');
    expect(rollup.names.map((n) => n.name)).toEqual(
      expect.arrayContaining(['m1', 'm1_last', 'm1_change', 'rows']),
    );
  });

  it('refuses placeholders that name no field, listing them', async () => {
    const data = docx(['{nosuch} {inspector}', '{#hazards}{desc} {nope}{/hazards}', '{desc}', '{@raw}']);
    const envelope = body<null>(await upload(admin, { tableId: String(forms[SAFE]), name: '坏模板' }, data));
    expect(envelope.code).toBe('W1003');
    expect(envelope.message).toContain('nosuch');
    expect((envelope.errors as Record<string, string[]>).placeholders).toEqual([
      'nosuch',
      'nope',
      'desc',
      'raw',
    ]);
    const kept = await t.app.ctx.db.selectFrom('diy_word_template').select('id').execute();
    expect(kept).toHaveLength(0);
  });

  it('refuses a broken .docx, unbalanced tags and a zip bomb with clear errors', async () => {
    const fields = { tableId: String(forms[SAFE]), name: '坏' };
    // Not a zip at all.
    const text = body(await upload(admin, fields, Buffer.from('not a word file')));
    expect(text.code).toBe('W1002');
    expect(text.message).toContain('zip');
    // A zip with a word/ part but no document.
    const noDocument = new PizZip();
    noDocument.file('word/styles.xml', '<x/>');
    const missing = body(await upload(admin, fields, noDocument.generate({ type: 'nodebuffer' })));
    expect(missing.code).toBe('W1002');
    expect(missing.message).toContain('word/document.xml');
    // A tag left open.
    const open = body(await upload(admin, fields, docx(['{inspector'])));
    expect(open.code).toBe('W1002');
    expect(open.message).toContain('inspector');
    // 60 MB of zeros packed in a few tens of KB.
    const bomb = body(
      await upload(admin, fields, docx(['{inspector}'], { 'word/media/x.bin': Buffer.alloc(60e6) })),
    );
    expect(bomb.code).toBe('W1004');
    // A directory that declares 100 bytes for an entry that inflates to 2 MB.
    const liar = docx(['{inspector}'], { 'word/media/y.bin': Buffer.alloc(2e6, 7) });
    const name = Buffer.from('word/media/y.bin');
    for (let at = liar.indexOf(name); at >= 0; at = liar.indexOf(name, at + 1)) {
      if (liar.readUInt32LE(at - 46) === 0x02014b50) liar.writeUInt32LE(100, at - 46 + 24);
      if (liar.readUInt32LE(at - 30) === 0x04034b50) liar.writeUInt32LE(100, at - 30 + 22);
    }
    expect(body(await upload(admin, fields, liar)).code).toBe('W1004');
    // Names that reach for the prototype are no names of the source; nothing is evaluated.
    const proto = body(await upload(admin, fields, docx(['{constructor}{__proto__}{inspector.toString}'])));
    expect(proto.code).toBe('W1003');
    expect(proto.errors).toEqual({ placeholders: ['constructor', '__proto__', 'inspector.toString'] });
    // Wrong suffix.
    const pdf = body(await upload(admin, fields, docx(['{inspector}']), 'x.pdf'));
    expect(pdf.code).toBe('D8001');
  });

  it('needs diyWord:add to upload and a source the caller may see', async () => {
    const response = await upload(
      gridstaff,
      { tableId: String(forms[SAFE]), name: 'x' },
      docx(['{inspector}']),
    );
    expect(response.statusCode).toBe(403);
    // A roll-up of another tenant, or no item at all.
    const other = body(await upload(admin, { tableId: '999999999', name: 'x' }, docx(['{x}'])));
    expect(other.code).toBe('W1001');
  });
});

describe('documents', () => {
  let recordTemplate: number;
  it('generates a record’s document: fields, sub-table rows repeated, conditionals', async () => {
    recordTemplate = await uploaded(
      { tableId: String(forms[SAFE]), name: '检查通知书', remark: '每条记录一份' },
      docx([
        '单位：{$org} 检查人：{inspector}',
        '{#hazards}',
        '隐患：{desc}（{level}）',
        '{/hazards}',
        '{#count > 1}隐患较多{/count > 1}{^count > 1}隐患较少{/count > 1}',
        '{#result == "fix"}限期整改{/result == "fix"}',
      ]),
    );
    const list = await api.ok<WordTemplate[]>(admin, 'GET', `/api/diyWord/list?tableId=${forms[SAFE]}`);
    expect(list.map((w) => w.name)).toEqual(['检查通知书']);
    expect(list[0]?.placeholders).toEqual(
      expect.arrayContaining(['$org', 'inspector', '#hazards', 'desc', '#count > 1', '#result == "fix"']),
    );

    const page = await api.ok<PageResult<DiyRecord>>(admin, 'POST', `/api/diyData/${forms[SAFE]}/page`, {
      page: 1,
      pageSize: 50,
    });
    const record = page.items.find((r) => Array.isArray(r.values.hazards) && r.values.hazards.length === 2);
    expect(record).toBeDefined();
    const rec = record as DiyRecord;
    const output = await api.ok<WordOutput>(admin, 'POST', `/api/diyWord/${recordTemplate}/record`, {
      recordId: rec.id,
    });
    expect(output).toMatchObject({ kind: 'record', count: 1, recordId: rec.id });
    expect(output.fileName.endsWith('.docx')).toBe(true);
    const text = paragraphsOf(await download(admin, output.fileId));
    const hazards = rec.values.hazards as { desc: string; level: string }[];
    const levels: Record<string, string> = { normal: '一般隐患', major: '重大隐患' };
    expect(text).toEqual([
      `单位：${rec.createOrgName} 检查人：${rec.labels.inspector ?? rec.values.inspector}`,
      ...hazards.map((h) => `隐患：${h.desc}（${levels[h.level]}）`),
      '隐患较多',
      // Conditions compare the stored value or its label.
      rec.values.result === 'fix' ? '限期整改' : '',
    ]);
    // Kept as a file of the record and listed under the template.
    const file = await t.app.ctx.db
      .selectFrom('sys_file')
      .select(['belong_id', 'file_type', 'tenant_id'])
      .where('id', '=', output.fileId)
      .executeTakeFirstOrThrow();
    expect(file).toMatchObject({ belong_id: rec.id, file_type: `diyWord:${forms[SAFE]}` });
    const outputs = await api.ok<WordOutput[]>(admin, 'GET', `/api/diyWord/${recordTemplate}/outputs`);
    expect(outputs.map((o) => o.fileId)).toEqual([output.fileId]);
  });

  it('answers a record outside the caller’s reach as missing, and W1005 for a bulletin of a form', async () => {
    expect(
      await api.code(admin, 'POST', `/api/diyWord/${recordTemplate}/record`, { recordId: 123456789 }),
    ).toBe('F1008');
    expect(await api.code(admin, 'POST', `/api/diyWord/${recordTemplate}/bulletin`, {})).toBe('W1005');
  });

  it('generates one document per unit for a period, in one .zip', async () => {
    const template = await uploaded(
      { tableId: String(forms[POP]), name: '人口月报单' },
      docx(['{$org} {$period}', '户籍：{huji}']),
    );
    const db = t.app.ctx.db;
    const period = await db
      .selectFrom('diy_table_period')
      .select(['id', 'name'])
      .where('table_id', '=', forms[POP] as number)
      .orderBy('start_date', 'desc')
      .execute();
    let output: WordOutput | null = null;
    let periodName = '';
    for (const p of period) {
      const env = await api.envelope<WordOutput>(admin, 'POST', `/api/diyWord/${template}/batch`, {
        periodId: p.id,
      });
      if (env.code === 200) {
        output = env.result as WordOutput;
        periodName = p.name;
        break;
      }
      expect(env.code).toBe('W1008');
    }
    expect(output).not.toBeNull();
    const out = output as WordOutput;
    const records = await api.ok<PageResult<DiyRecord>>(admin, 'POST', `/api/diyData/${forms[POP]}/page`, {
      page: 1,
      pageSize: 500,
      periodId: out.periodId,
    });
    const units = new Map<string, DiyRecord>();
    for (const r of records.items) {
      if ((r.status === 1 || r.status === 2) && !units.has(r.createOrgName ?? ''))
        units.set(r.createOrgName ?? '', r);
    }
    expect(out.count).toBe(units.size);
    const zip = new PizZip(await download(admin, out.fileId));
    const names = Object.keys(zip.files).sort();
    expect(names).toEqual([...units.keys()].map((n) => `${n}.docx`).sort());
    for (const [name, record] of units) {
      const text = paragraphsOf(zip.file(`${name}.docx`)?.asNodeBuffer() as Buffer);
      expect(text).toEqual([`${name} ${periodName}`, `户籍：${record.values.huji}`]);
    }
    expect(await api.code(admin, 'POST', `/api/diyWord/${template}/batch`, { periodId: 987654321 })).toBe(
      'W1006',
    );
  });

  it('generates a roll-up bulletin: this period, last period and the change', async () => {
    const template = await uploaded(
      { tableId: String(forms[ROLLUP]), name: '人口简报' },
      docx([
        '{$period} 对比 {$lastPeriod}',
        '合计 {m1} 上期 {m1_last} 增减 {m1_change}',
        '{#rows}{name}:{m1};{/rows}',
      ]),
    );
    // The newest period with figures.
    const periods = await t.app.ctx.db
      .selectFrom('diy_table_period')
      .select('id')
      .where('table_id', '=', forms[POP] as number)
      .orderBy('start_date', 'desc')
      .execute();
    let data: RollupData | null = null;
    for (const p of periods) {
      data = await api.ok<RollupData>(admin, 'POST', `/api/diyLoad/${forms[ROLLUP]}/data`, {
        periodId: p.id,
        compare: true,
      });
      if (data.total.figures.m1 !== null && data.total.figures.m1 !== undefined) break;
    }
    if (!data) throw new Error('no period');
    const output = await api.ok<WordOutput>(admin, 'POST', `/api/diyWord/${template}/bulletin`, {
      periodId: data.period?.id,
    });
    expect(output.periodId).toBe(data.period?.id);
    const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
    const now = data.total.figures.m1 ?? null;
    const last = data.total.last?.m1 ?? null;
    expect(now).not.toBeNull();
    const text = paragraphsOf(await download(admin, output.fileId));
    expect(text).toEqual([
      `${data.period?.name} 对比 ${data.lastPeriod?.name ?? ''}`,
      `合计 ${fmt(now)} 上期 ${fmt(last)} 增减 ${now === null || last === null ? '' : fmt(now - last)}`,
      data.rows.map((r) => `${r.name}:${fmt(r.figures.m1)};`).join(''),
    ]);
  });

  it('generates a query report bulletin from its rows and totals', async () => {
    const reportId = await api.ok<number>(admin, 'POST', '/api/diyQuery/add', {
      title: '人口查询',
      config: {
        sources: [{ alias: 's1', tableId: forms[POP] }],
        join: 'unitPeriod',
        columns: [
          { id: 'c1', label: '单位', source: 's1', field: '$org' },
          { id: 'c2', label: '户籍', source: 's1', field: 'huji' },
        ],
        params: [],
        sort: [{ column: 'c2', desc: true }],
      },
    });
    const template = await uploaded(
      { tableId: String(reportId), name: '查询简报' },
      docx(['共 {$count} 行，户籍合计 {total_c2}', '{#rows}{c1}={c2};{/rows}']),
    );
    const output = await api.ok<WordOutput>(admin, 'POST', `/api/diyWord/${template}/bulletin`, {
      params: {},
    });
    const data = await api.ok<{
      rows: { cells: Record<string, unknown> }[];
      total: Record<string, unknown>;
      count: number;
    }>(admin, 'POST', `/api/diyQuery/${reportId}/data`, { params: {}, page: 1, pageSize: 500 });
    const text = paragraphsOf(await download(admin, output.fileId));
    expect(text).toEqual([
      `共 ${data.count} 行，户籍合计 ${data.total.c2}`,
      data.rows.map((r) => `${r.cells.c1}=${r.cells.c2 ?? ''};`).join(''),
    ]);
  });

  it('keeps another tenant’s templates out of reach and checks rights', async () => {
    const db = t.app.ctx.db;
    const [own] = await db.selectFrom('diy_word_template').select(['file_id', 'table_id']).limit(1).execute();
    await db
      .insertInto('diy_word_template')
      .values({
        id: 77_000_000_001,
        tenant_id: 42,
        table_id: Number(own?.table_id),
        name: '别家的',
        file_id: Number(own?.file_id),
        placeholders: '[]',
        remark: null,
        create_time: '2026-01-01 00:00:00',
        create_user_id: 1,
        create_user_name: 'x',
        create_org_id: null,
        is_delete: 0,
      })
      .execute();
    expect(await api.code(admin, 'POST', '/api/diyWord/77000000001/record', { recordId: 1 })).toBe('W1000');
    expect(await api.code(admin, 'GET', '/api/diyWord/77000000001/outputs')).toBe('W1000');
    expect(await api.code(admin, 'POST', '/api/diyWord/delete', { ids: [77_000_000_001] })).toBe('W1000');
    const list = await api.ok<WordTemplate[]>(admin, 'GET', '/api/diyWord/list');
    expect(list.map((w) => w.id)).not.toContain(77_000_000_001);
    // Staff may generate but not delete.
    const id = (list.find((w) => w.name === '检查通知书') as WordTemplate).id;
    const response = await api.call(gridstaff, 'POST', '/api/diyWord/delete', { ids: [id] });
    expect(response.statusCode).toBe(403);
    // Delete, then it is gone.
    await api.ok(admin, 'POST', '/api/diyWord/delete', { ids: [id] });
    expect(await api.code(admin, 'GET', `/api/diyWord/${id}/outputs`)).toBe('W1000');
  });
});
