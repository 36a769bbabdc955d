/**
 * `npm run bench:diy -w bench` (after `npm run build -w apps/server`): issue 5 §10. Starts the built server on
 * a temporary SQLite database, creates and publishes a 30-field report form through the real API, loads
 * 1,000,000 records straight into its data table (prepared INSERTs in large transactions, varied values,
 * the system columns as the server writes them), then
 * - times `POST /api/diyData/{id}/page` with one filter at a time (select equals, a date range, a text
 *   contains, none), on page 1 and on deep pages, default sort: p50 / p99 over `BENCH_SAMPLES` requests;
 * - runs a "deadline rush": 200 concurrent submitters (several users) `POST /add` with `submit: true` for
 *   `BENCH_RUSH_SECONDS`, then counts the rows really written against the answers with code 200.
 * Targets: filtered page p50 under 100 ms; the rush ≥ 300 submissions/s with none lost. Nothing asserts a
 * timing; the figures are printed. The temporary database is deleted at the end.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { launchShuzhi, type RunningShuzhi } from '../e2e/server.ts';
import { signIn } from './sign-in.ts';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const RUSH_SECONDS = Number(process.env.BENCH_RUSH_SECONDS ?? 12);
const RUSH_CONNECTIONS = Number(process.env.BENCH_RUSH_CONNECTIONS ?? 200);
const PAGE_TARGET_MS = 100;
const RUSH_TARGET = 300;
const BATCH = 50_000;
/** `BENCH_NO_INDEXES=1` drops the list indexes that publishing created, to measure without them. */
const NO_INDEXES = process.env.BENCH_NO_INDEXES === '1';
/**
 * `BENCH_NO_SEARCH_INDEX=1` drops the form's text-search index (FTS5 table and triggers) to measure without it
 * (the search cases are left out then).
 */
const NO_SEARCH_INDEX = process.env.BENCH_NO_SEARCH_INDEX === '1';

/** The server's process id, from the socket it listens on (Linux `ss`); null when it cannot be told. */
export function pidOf(baseUrl: string): number | null {
  try {
    const out = execFileSync('ss', ['-ltnpH', `sport = :${new URL(baseUrl).port}`], { encoding: 'utf8' });
    const m = /pid=(\d+)/.exec(out);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** CPU time (ms) the process has used, all threads; null off Linux. Steadier than wall time on a shared machine. */
export function cpuOf(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
let serverPid: number | null = null;
const cpuSpent = (before: number | null) => {
  const now = cpuOf(serverPid);
  return before === null || now === null ? null : now - before;
};
const cpuText = (total: number | null, n: number) =>
  total === null || n === 0 ? '   ?' : `${(total / n).toFixed(1).padStart(5)} ms`;

const options = (prefix: string, labels: string[]) => ({
  source: 'options',
  items: labels.map((label, i) => ({ value: `${prefix}${i}`, label })),
});
const KINDS = ['工业', '建筑业', '批发业', '零售业', '住宿业', '餐饮业', '信息服务', '房地产'];
const SCALES = ['大型', '中型', '小型', '微型'];
const INDUSTRIES = Array.from({ length: 20 }, (_, i) => `行业${i + 1}`);
const TAGS = ['高新', '专精特新', '外资', '国资', '上市'];

/** 30 value fields of mixed types (plus a section), a serial number and one unique field. */
export const DESIGN = {
  fields: [
    { id: 'sec', type: 'section', label: '企业基本情况' },
    { id: 'entname', type: 'text', label: '企业名称', required: true, maxLength: 64 },
    { id: 'credit', type: 'text', label: '统一社会信用代码', required: true, unique: 'form', maxLength: 18 },
    { id: 'address', type: 'text', label: '地址', maxLength: 128 },
    { id: 'contact', type: 'text', label: '联系人', maxLength: 32 },
    { id: 'mobile', type: 'mobile', label: '手机' },
    { id: 'tel', type: 'landline', label: '座机' },
    { id: 'mail', type: 'email', label: '邮箱' },
    { id: 'zip', type: 'postcode', label: '邮编' },
    { id: 'site', type: 'url', label: '网址' },
    { id: 'plate', type: 'licensePlate', label: '车牌' },
    { id: 'staff', type: 'integer', label: '职工人数', min: 0, max: 1_000_000, required: true },
    { id: 'revenue', type: 'money', label: '营业收入' },
    { id: 'profit', type: 'money', label: '利润总额' },
    { id: 'tax', type: 'decimal', label: '纳税额', precision: 2 },
    { id: 'rate', type: 'percent', label: '增长率', precision: 1 },
    { id: 'day', type: 'date', label: '填报日期', required: true },
    { id: 'at', type: 'datetime', label: '核查时间' },
    { id: 'mon', type: 'month', label: '统计月份' },
    { id: 'qtr', type: 'quarter', label: '季度' },
    { id: 'yr', type: 'year', label: '年度' },
    { id: 'kind', type: 'select', label: '门类', required: true, options: options('k', KINDS) },
    { id: 'scale', type: 'radio', label: '规模', options: options('s', SCALES) },
    { id: 'industry', type: 'select', label: '行业', options: options('i', INDUSTRIES) },
    { id: 'tags', type: 'multiSelect', label: '标签', options: options('t', TAGS) },
    { id: 'area', type: 'region', label: '所在区域' },
    { id: 'memo', type: 'textarea', label: '经营情况', maxLength: 500 },
    { id: 'remark', type: 'text', label: '备注', maxLength: 200 },
    { id: 'score', type: 'integer', label: '信用评分', min: 0, max: 100 },
    { id: 'sn', type: 'serialNo', label: '编号' },
  ],
  numbering: { prefix: 'BX', datePart: 'yyyy', digits: 8 },
};

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢';
const WORDS = '华兴盛达恒信瑞丰安泰宏远金鑫海通正源博创新锦天宇嘉和明辉永昌国联东方富';
const ROADS = ['中山东一路', '南京东路', '淮海中路', '西藏南路', '河南中路', '福州路', '延安东路', '人民路'];
const MEMOS = ['正常经营', '订单增长', '原材料上涨', '产能扩张', '季节性波动', '出口回暖', '人员精简'];
const PROVINCE = '沪京苏浙皖粤鲁';

const at = (text: string, i: number) => text[i % text.length] as string;
export const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** A cheap deterministic mix of `i`, so neighbouring records differ. */
export const mix = (i: number, salt: number) => {
  let x = (i + 1) * 2654435761 + salt * 40503;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 2246822519) >>> 0;
  return (x ^ (x >>> 13)) >>> 0;
};

/** Record values as a client sends them (`credit` unique per `i`, from its own series). */
export function valuesOf(i: number, regions: string[], series: '1' | '2'): Record<string, unknown> {
  const m = (salt: number) => mix(i, salt);
  const year = 2024 + (m(1) % 3);
  const month = 1 + (m(2) % 12);
  const day = 1 + (m(3) % 28);
  const revenue = Math.round((m(4) % 100_000_000) + 10_000) / 100;
  return {
    entname: `上海${at(WORDS, m(5))}${at(WORDS, m(6))}${at(WORDS, m(7))}有限公司`,
    credit: `9${series}31${pad(i, 14)}`,
    address: `${ROADS[m(8) % ROADS.length]}${1 + (m(9) % 999)}号`,
    contact: `${at(SURNAMES, m(10))}${at(WORDS, m(11))}`,
    mobile: `1${'358'[m(12) % 3]}${pad(m(13) % 1_000_000_000, 9)}`,
    tel: `021-${pad(60_000_000 + (m(14) % 9_999_999), 8)}`,
    mail: `hr${i}@example.com`,
    zip: `200${pad(m(15) % 1000, 3)}`,
    site: `https://e${i}.example.com`,
    plate: `${at(PROVINCE, m(16))}A${pad(m(17) % 100_000, 5)}`,
    staff: m(18) % 5000,
    revenue,
    profit: Math.round(revenue * ((m(19) % 30) - 5)) / 100,
    tax: Math.round(revenue * 6) / 100,
    rate: ((m(20) % 600) - 200) / 10,
    day: `${year}-${pad(month, 2)}-${pad(day, 2)}`,
    at: `${year}-${pad(month, 2)}-${pad(day, 2)} ${pad(8 + (m(21) % 10), 2)}:${pad(m(22) % 60, 2)}:00`,
    mon: `${year}-${pad(month, 2)}`,
    qtr: `${year}-Q${1 + Math.floor((month - 1) / 3)}`,
    yr: String(year),
    kind: `k${m(23) % KINDS.length}`,
    scale: `s${m(24) % SCALES.length}`,
    industry: `i${m(25) % INDUSTRIES.length}`,
    tags: TAGS.map((_, t) => `t${t}`).filter((_, t) => (m(26) >> t) & 1),
    area: regions[m(27) % regions.length],
    memo: `${MEMOS[m(28) % MEMOS.length]}，${MEMOS[m(29) % MEMOS.length]}。`,
    remark: m(30) % 4 === 0 ? null : `第${1 + (m(31) % 4)}季度已核实`,
    score: m(32) % 101,
  };
}

type Envelope = { code: number; message?: string; result: unknown };

export async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as Envelope;
}

export async function ok<T>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  // A keep-alive connection may have been closed by the server while the records were loading: once more.
  const env = await call(base, token, method, path, body).catch(() => call(base, token, method, path, body));
  if (env.code !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(env).slice(0, 500)}`);
  return env.result as T;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;

/** Loads `records` rows (default `RECORDS`) into the form's table beside the running server (WAL lets the server go on). */
export function load(
  shuzhi: RunningShuzhi,
  formId: number,
  regions: string[],
  records = RECORDS,
): { seconds: number; searchSeconds: number; dbMb: number } {
  const started = performance.now();
  const db = new Database(join(shuzhi.dataDir, 'shuzhi.db'));
  db.pragma('busy_timeout = 60000');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  const form = db.prepare('select tenant_id from diy_table where id = ?').get(formId) as {
    tenant_id: number;
  };
  const columns = (
    db.prepare('select field_id, column_name from diy_table_column where table_id = ?').all(formId) as {
      field_id: string;
      column_name: string;
    }[]
  ).map((c) => ({ field: c.field_id, column: c.column_name }));
  const creators = db
    .prepare(
      `select u.id, u.real_name, o.id as org_id, o.name as org_name from sys_user u
       join sys_org o on o.id = u.org_id where u.tenant_id = ? and u.is_delete = 0`,
    )
    .all(form.tenant_id) as { id: number; real_name: string; org_id: number; org_name: string }[];
  const system = [
    'id',
    'tenant_id',
    'version',
    'status',
    'data_no',
    'submit_time',
    'create_time',
    'create_user_id',
    'create_user_name',
    'is_delete',
    'create_org_id',
    'create_org_name',
  ];
  // The indexes publishing created are dropped for the load and built again after it, by their own DDL
  // (building an index once is much faster than growing it row by row).
  const indexes = db
    .prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null")
    .all(`diy_data_${formId}`) as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`drop index ${name}`);
  // So is the text-search index: its triggers go, and its FTS5 table is filled once after the load.
  const triggers = db
    .prepare("select name, sql from sqlite_master where type = 'trigger' and tbl_name = ?")
    .all(`diy_data_${formId}`) as { name: string; sql: string }[];
  for (const { name } of triggers) db.exec(`drop trigger ${name}`);
  const all = [...system, ...columns.map((c) => c.column)];
  const insert = db.prepare(
    `insert into diy_data_${formId} (${all.join(', ')}) values (${all.map(() => '?').join(', ')})`,
  );
  const year = new Date().getFullYear();
  // Ids below the server's snowflake ids, ascending with the creation time as the server's are.
  const firstId = 1_000_000_000_000;
  const runBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const v = valuesOf(i, regions, '1');
      const who = creators[mix(i, 99) % creators.length] as (typeof creators)[number];
      const seconds = Math.floor((i / records) * 300 * 86_400);
      const created = new Date(Date.UTC(year, 0, 1) + seconds * 1000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ');
      const row: unknown[] = [
        firstId + i,
        form.tenant_id,
        1,
        2,
        `BX${year}${pad(i + 1, 8)}`,
        created,
        created,
        who.id,
        who.real_name,
        mix(i, 98) % 500 === 0 ? 1 : 0,
        who.org_id,
        who.org_name,
      ];
      for (const { field } of columns) {
        const value = field === 'sn' ? row[4] : v[field];
        row.push(Array.isArray(value) ? JSON.stringify(value) : (value ?? null));
      }
      insert.run(...row);
    }
  });
  for (let from = 0; from < records; from += BATCH) {
    runBatch(from, Math.min(records, from + BATCH));
    process.stdout.write(`\r  loaded ${Math.min(records, from + BATCH).toLocaleString('en')} records`);
  }
  process.stdout.write('\n');
  for (const index of indexes) db.exec(index.sql);
  const searchStarted = performance.now();
  if (triggers.length > 0) {
    const fts = `diy_fts_${formId}`;
    const names = (db.prepare('select name from pragma_table_info(?)').all(fts) as { name: string }[]).map(
      (c) => c.name,
    );
    db.exec(
      `insert into ${fts} (rowid, ${names.join(', ')}) select id, ${names.map((c) => `lower(${c})`).join(', ')} from diy_data_${formId} where id >= ${firstId}`,
    );
    for (const trigger of triggers) db.exec(trigger.sql);
  }
  const searchSeconds = (performance.now() - searchStarted) / 1000;
  const live = (
    db.prepare(`select count(*) as n from diy_data_${formId} where is_delete = 0`).get() as { n: number }
  ).n;
  db.prepare('update diy_table set record_count = ? where id = ?').run(live, formId);
  // The serial numbers go on after the loaded ones, as if the server had numbered them.
  // Its id is below the server's ids, and one per form (bench/diy-ledger.ts loads two).
  db.prepare(
    `insert into diy_table_seq (id, table_id, period_key, last_no) values (?, ?, ?, ?)
     on conflict (table_id, period_key) do update set last_no = excluded.last_no`,
  ).run(firstId - 1 - (formId % 1_000_000), formId, String(year), records);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  return {
    seconds: (performance.now() - started) / 1000,
    searchSeconds,
    dbMb: (pages * pageSize) / 1024 / 1024,
  };
}

type PageCase = { name: string; body: (n: number) => Record<string, unknown> };

const contains = (value: string) => ({
  page: 1,
  pageSize: 20,
  filters: [{ field: 'entname', op: 'contains', value }],
});

/**
 * The text searches (docs/search.md): a `contains` of three characters (the trigram index answers; a few
 * dozen matches per million), of two (no trigram: the plain LIKE scans), and the keyword box over every text
 * column, three characters (about 0.07 % of the records match: ~700 per million).
 */
export function searchCases(): PageCase[] {
  const word = (n: number, k: number) => at(WORDS, n * 7 + k * 13);
  return [
    {
      name: 'text contains (企业名称, 3 chars), page 1',
      body: (n) => contains(`${word(n, 0)}${word(n, 1)}${word(n, 2)}`),
    },
    {
      name: 'text contains (企业名称, 2 chars), page 1',
      body: (n) => contains(`${at(WORDS, n)}${at(WORDS, n + 7)}`),
    },
    {
      name: 'keyword (3 chars), page 1',
      body: (n) => ({ page: 1, pageSize: 20, keyword: `${word(n, 0)}${word(n, 1)}有` }),
    },
  ];
}

/** Bytes of the data table and of its search index (SQLite `dbstat`). */
export function searchSizes(file: string, formId: number): { tableMb: number; indexMb: number } {
  const db = new Database(file, { readonly: true });
  try {
    const size = (pattern: string) =>
      (
        db.prepare('select coalesce(sum(pgsize), 0) as n from dbstat where name like ?').get(pattern) as {
          n: number;
        }
      ).n /
      1024 /
      1024;
    return { tableMb: size(`diy_data_${formId}`), indexMb: size(`diy_fts_${formId}%`) };
  } finally {
    db.close();
  }
}
type PageFigure = { name: string; p50: number; p99: number; total: number; cpu: number | null };

async function timePages(
  base: string,
  token: string,
  formId: number,
  cases: PageCase[],
): Promise<PageFigure[]> {
  const figures: PageFigure[] = [];
  for (const c of cases) {
    await ok(base, token, 'POST', `/api/diyData/${formId}/page`, c.body(0));
    const times: number[] = [];
    let total = 0;
    const cpuBefore = cpuOf(serverPid);
    for (let n = 0; n < SAMPLES; n++) {
      const started = performance.now();
      const page = await ok<{ total: number; items: unknown[] }>(
        base,
        token,
        'POST',
        `/api/diyData/${formId}/page`,
        c.body(n),
      );
      times.push(performance.now() - started);
      total = page.total;
      if (page.items.length === 0 && page.total > 0 && n === 0) throw new Error(`${c.name}: empty page`);
    }
    const cpu = cpuSpent(cpuBefore);
    times.sort((a, b) => a - b);
    const figure = {
      name: c.name,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      total,
      cpu: cpu === null ? null : cpu / SAMPLES,
    };
    console.log(
      `  ${c.name.padEnd(42)} p50 ${ms(figure.p50)}   p99 ${ms(figure.p99)}   server CPU ${cpuText(cpu, SAMPLES)}/req   total ${total}`,
    );
    figures.push(figure);
  }
  return figures;
}

type Rush = {
  answered: number;
  accepted: number;
  refused: Map<string, number>;
  ids: number[];
  seconds: number;
};

/**
 * `RUSH_CONNECTIONS` submitters (autocannon connections, each signed in as one of `tokens`) for
 * `RUSH_SECONDS`, each submitting a new record as soon as the last one is answered.
 */
async function rush(base: string, tokens: string[], formId: number, regions: string[]): Promise<Rush> {
  const refused = new Map<string, number>();
  const ids: number[] = [];
  let answered = 0;
  let next = 0;
  let connection = 0;
  const started = performance.now();
  const result = await autocannon({
    url: `${base}/api/diyData/${formId}/add`,
    method: 'POST',
    connections: RUSH_CONNECTIONS,
    duration: RUSH_SECONDS,
    timeout: 60,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request, state) => {
          const context = state as { token?: string };
          if (context.token === undefined) context.token = tokens[connection++ % tokens.length];
          return {
            ...request,
            headers: { ...request.headers, authorization: `Bearer ${context.token}` },
            body: JSON.stringify({ values: valuesOf(next++, regions, '2'), submit: true }),
          };
        },
        onResponse: (status, body) => {
          answered++;
          let env: Envelope | null = null;
          try {
            env = JSON.parse(body) as Envelope;
          } catch {
            env = null;
          }
          if (status === 200 && env?.code === 200) ids.push(env.result as number);
          else {
            const key =
              `HTTP ${status} ${env ? `${env.code} ${env.message ?? ''}` : body.slice(0, 80)}`.trim();
            refused.set(key, (refused.get(key) ?? 0) + 1);
          }
        },
      },
    ],
  });
  const transport = result.errors + result.timeouts;
  if (transport > 0) refused.set('transport errors / timeouts', transport);
  return { answered, accepted: ids.length, refused, ids, seconds: (performance.now() - started) / 1000 };
}

/** Creates and publishes the 30-field bench form through the API; answers its id. */
export async function createBenchForm(base: string, token: string, title = '企业经营情况月报（基准）') {
  const formId = await ok<number>(base, token, 'POST', '/api/diyTable/add', {
    title,
    fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
  });
  await ok(base, token, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
  return formId;
}

/** Sixteen district codes for the region field (inserted into a fresh database that has no regions). */
export function benchRegions(setup: Database.Database): string[] {
  const regions = (
    setup
      .prepare('select code from sys_region where is_delete = 0 and level = 3 order by code limit 16')
      .all() as {
      code: string;
    }[]
  ).map((r) => r.code);
  if (regions.length === 0) {
    // A fresh database has no regions: the sixteen districts of Shanghai for the region field.
    const names = [
      '黄浦',
      '徐汇',
      '长宁',
      '静安',
      '普陀',
      '虹口',
      '杨浦',
      '闵行',
      '宝山',
      '嘉定',
      '浦东新',
      '金山',
      '松江',
      '青浦',
      '奉贤',
      '崇明',
    ];
    const codes = [
      '310101',
      '310104',
      '310105',
      '310106',
      '310107',
      '310109',
      '310110',
      '310112',
      '310113',
      '310114',
      '310115',
      '310116',
      '310117',
      '310118',
      '310120',
      '310151',
    ];
    const add = setup.prepare(
      `insert into sys_region (id, create_time, is_delete, pid, code, name, level, full_code, full_name, is_local, order_no)
       values (?, '2026-01-01 00:00:00', 0, 0, ?, ?, 3, ?, ?, 1, ?)`,
    );
    for (const [n, code] of codes.entries()) {
      add.run(
        900_000_000 + n,
        code,
        `${names[n]}区`,
        `310000,310100,${code}`,
        `上海市/市辖区/${names[n]}区`,
        n,
      );
    }
    return codes;
  }
  return regions;
}

async function main(): Promise<void> {
  const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
  try {
    const base = shuzhi.baseUrl;
    serverPid = pidOf(base);
    const admin = await signIn(base);
    const formId = await createBenchForm(base, admin);

    const setup = new Database(join(shuzhi.dataDir, 'shuzhi.db'));
    setup.pragma('busy_timeout = 60000');
    const regions = benchRegions(setup);
    if (NO_INDEXES) {
      for (const { name } of setup
        .prepare(
          "select name from sqlite_master where type = 'index' and tbl_name = ? and (name like '%\\_f\\_%' escape '\\' or name like '%\\_live' escape '\\')",
        )
        .all(`diy_data_${formId}`) as { name: string }[]) {
        setup.exec(`drop index ${name}`);
      }
    }
    if (NO_SEARCH_INDEX) {
      for (const suffix of ['ai', 'ad', 'au']) setup.exec(`drop trigger tg_diy_data_${formId}_${suffix}`);
      setup.exec(`drop table diy_fts_${formId}`);
    }
    const indexes = setup
      .prepare("select name from sqlite_master where type = 'index' and tbl_name = ?")
      .all(`diy_data_${formId}`) as { name: string }[];
    setup.close();

    console.log(`\nForm ${formId}: 30 value fields, ${indexes.length} indexes on its data table`);
    console.log(`Loading ${RECORDS.toLocaleString('en')} records into SQLite …`);
    const loaded = load(shuzhi, formId, regions);
    console.log(
      `  ${loaded.seconds.toFixed(1)} s (${loaded.searchSeconds.toFixed(1)} s of it filling the search index), database ${loaded.dbMb.toFixed(0)} MB`,
    );
    const sizes = searchSizes(join(shuzhi.dataDir, 'shuzhi.db'), formId);
    console.log(
      `  data table ${sizes.tableMb.toFixed(0)} MB, its text-search index (FTS5 trigram) ${sizes.indexMb.toFixed(0)} MB`,
    );

    const pages = Math.floor(RECORDS / 20);
    const month = (n: number) => `${2024 + (n % 3)}-${pad(1 + (n % 12), 2)}`;
    const cases: PageCase[] = [
      { name: 'no filter, page 1', body: () => ({ page: 1, pageSize: 20 }) },
      {
        name: 'no filter, deep pages (~25,000)',
        body: (n) => ({ page: Math.floor(pages / 2) + n, pageSize: 20 }),
      },
      {
        name: 'select eq (门类), page 1',
        body: (n) => ({ page: 1, pageSize: 20, filters: [{ field: 'kind', op: 'eq', value: `k${n % 8}` }] }),
      },
      {
        name: 'select eq (门类), deep pages (~3,000)',
        body: (n) => ({
          page: Math.floor(pages / 8 / 2) + n,
          pageSize: 20,
          filters: [{ field: 'kind', op: 'eq', value: `k${n % 8}` }],
        }),
      },
      {
        name: 'select eq (行业, 1 of 20), page 1',
        body: (n) => ({
          page: 1,
          pageSize: 20,
          filters: [{ field: 'industry', op: 'eq', value: `i${n % 20}` }],
        }),
      },
      {
        name: 'date range (one month), page 1',
        body: (n) => ({
          page: 1,
          pageSize: 20,
          filters: [{ field: 'day', op: 'between', value: [`${month(n)}-01`, `${month(n)}-28`] }],
        }),
      },
      {
        name: 'date range (one month), deep pages (~350)',
        body: (n) => ({
          page: Math.max(1, Math.floor(RECORDS / 36 / 20 / 2)) + n,
          pageSize: 20,
          filters: [{ field: 'day', op: 'between', value: [`${month(n)}-01`, `${month(n)}-28`] }],
        }),
      },
      ...(NO_SEARCH_INDEX ? [] : searchCases()),
    ];
    console.log(
      `\nPOST /api/diyData/${formId}/page, default sort, ${SAMPLES} requests each (one at a time):`,
    );
    const figures = await timePages(base, admin, formId, cases);

    const accounts = ['admin', 'fgwstaff', 'hpleader', 'gzlstaff', 'qyfiller', 'qyfiller2'];
    const tokens: string[] = [];
    for (const account of accounts) {
      try {
        const token = await signIn(base, account);
        const probe = await call(base, token, 'POST', `/api/diyData/${formId}/add`, {
          values: valuesOf(9_000_000 + tokens.length, regions, '1'),
          submit: true,
        });
        if (probe.code === 200) tokens.push(token);
        else console.log(`  (${account} cannot submit: ${probe.code} ${probe.message ?? ''})`);
      } catch (error) {
        console.log(`  (${account} skipped: ${(error as Error).message})`);
      }
    }
    if (tokens.length === 0) throw new Error('No account could submit the form');
    const countRows = () => {
      const db = new Database(join(shuzhi.dataDir, 'shuzhi.db'), { readonly: true });
      try {
        return (db.prepare(`select count(*) as n from diy_data_${formId}`).get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const before = countRows();
    const rushCpu = cpuOf(serverPid);
    console.log(
      `\nDeadline rush: ${RUSH_CONNECTIONS} concurrent submitters as ${tokens.length} users, ${RUSH_SECONDS} s, POST /api/diyData/${formId}/add (submit)`,
    );
    const result = await rush(base, tokens, formId, regions);
    // Requests in flight when the clock ran out were cut by the client; let the server finish them.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const rushCpuMs = cpuSpent(rushCpu);
    const after = countRows();
    const check = new Database(join(shuzhi.dataDir, 'shuzhi.db'), { readonly: true });
    const written = check
      .prepare(
        `select count(*) as n, count(distinct data_no) as numbers from diy_data_${formId} where id in (select value from json_each(?))`,
      )
      .get(JSON.stringify(result.ids)) as { n: number; numbers: number };
    const history = (
      check
        .prepare(
          `select count(distinct record_id) as n from diy_record_history where table_id = ? and action = 'submit' and record_id in (select value from json_each(?))`,
        )
        .get(formId, JSON.stringify(result.ids)) as { n: number }
    ).n;
    check.close();
    const rate = result.accepted / result.seconds;
    const lost = result.accepted - written.n;
    const cut = after - before - written.n;
    console.log(
      `  answers ${result.answered}, code 200: ${result.accepted}, in ${result.seconds.toFixed(1)} s; server CPU ${cpuText(rushCpuMs, after - before)} per record written`,
    );
    for (const [reason, n] of result.refused) console.log(`  refused: ${n} × ${reason}`);
    console.log(
      `  rows before ${before}, after ${after} (+${after - before}); accepted ids found ${written.n} of ${result.accepted}, distinct serial numbers ${written.numbers}, submit history ${history}; written but answer cut by the client's stop: ${cut}`,
    );

    const filtered = figures.filter((f) => f.name.includes('eq') || f.name.includes('range'));
    const worstFiltered = Math.max(...filtered.map((f) => f.p50));
    console.log('\nRESULT');
    console.log(
      `  records ${RECORDS.toLocaleString('en')} on SQLite (loaded in ${loaded.seconds.toFixed(0)} s, ${loaded.dbMb.toFixed(0)} MB), ${indexes.length} indexes on the data table${NO_INDEXES ? ' (list indexes dropped)' : ''}`,
    );
    for (const f of figures) {
      console.log(
        `  ${f.name.padEnd(42)} p50 ${ms(f.p50)}  p99 ${ms(f.p99)}  server CPU ${cpuText(f.cpu, 1)}/req`,
      );
    }
    console.log(
      `  filtered page p50 (select / date), worst ${worstFiltered.toFixed(1)} ms; target < ${PAGE_TARGET_MS} ms: ${worstFiltered < PAGE_TARGET_MS ? 'met' : 'NOT met'}`,
    );
    const trigram = figures.find((f) => f.name.includes('3 chars') && f.name.includes('contains'));
    if (trigram) {
      console.log(
        `  contains (3 chars) p50 ${trigram.p50.toFixed(1)} ms, p99 ${trigram.p99.toFixed(1)} ms; target p50 < 30 ms, p99 < 80 ms: ${trigram.p50 < 30 && trigram.p99 < 80 ? 'met' : 'NOT met'}; data table ${sizes.tableMb.toFixed(0)} MB, index ${sizes.indexMb.toFixed(0)} MB`,
      );
    }
    console.log(
      `  deadline rush: ${rate.toFixed(0)} submissions/s (server CPU ${cpuText(rushCpuMs, after - before)} each), ${result.answered - result.accepted} refused, ${lost} lost (accepted ${result.accepted}, found ${written.n}, serial numbers ${written.numbers}); target ≥ ${RUSH_TARGET}/s, 0 lost: ${rate >= RUSH_TARGET && lost === 0 && written.numbers === written.n && history === written.n ? 'met' : 'NOT met'}`,
    );
  } finally {
    await shuzhi.stop();
  }
}

// Run only as the script itself (bench/diy-ledger.ts imports the helpers above).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
