/**
 * `npm run bench:db-routing -w bench`: what routing ctx.db to the current transaction costs (issue 14 §2,
 * docs/database.md). The same in-memory SQLite Kysely is queried raw and through routeTransactions: a
 * one-row select by primary key, outside a transaction and inside one, in alternating rounds. The first raw
 * round runs before any transaction scope was entered, since on Node 20 the first AsyncLocalStorage.run
 * switches on promise hooks for the whole process. Prints CPU µs per query; nothing here asserts a timing.
 */
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../apps/server/src/db/schema.ts';
import { type Db, routeTransactions } from '../apps/server/src/platform/db/db.ts';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const sqlite = new SqliteDatabase(':memory:');
sqlite.exec('create table sys_config (id integer primary key, code text, value text, is_delete integer)');
const insert = sqlite.prepare('insert into sys_config values (?, ?, ?, 0)');
for (let i = 1; i <= 1000; i++) insert.run(i, `code${i}`, `value${i}`);

const raw: Db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
const routed = routeTransactions(raw);

const select = (db: Db, i: number) =>
  db
    .selectFrom('sys_config')
    .select('value')
    .where('id', '=', (i % 1000) + 1)
    .executeTakeFirst();

/** CPU µs per query over QUERIES sequential selects (steadier than wall time on a shared machine). */
async function time(run: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < QUERIES; i++) await run(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / QUERIES;
}

const outside = (db: Db) => time((i) => select(db, i));
/** Inside one transaction: raw queries go to the transaction handle; routed ones through ctx.db. */
const inside = (db: Db, viaCtx: boolean) =>
  db.transaction().execute((trx) => time((i) => select(viaCtx ? db : trx, i)));

await outside(raw);
const before = await outside(raw);
await outside(routed);
const beforeRouted = await outside(routed);
console.log(
  `before any transaction scope: raw ${before.toFixed(2)} µs, routed ${beforeRouted.toFixed(2)} µs`,
);

const sums = { raw: 0, routed: 0, rawTrx: 0, routedTrx: 0 };
for (let round = 1; round <= ROUNDS; round++) {
  const figures = {
    raw: await outside(raw),
    routed: await outside(routed),
    rawTrx: await inside(raw, false),
    routedTrx: await inside(routed, true),
  };
  for (const key of Object.keys(sums) as Array<keyof typeof sums>) sums[key] += figures[key];
  console.log(
    `round ${round}: outside raw ${figures.raw.toFixed(2)} / routed ${figures.routed.toFixed(2)} µs; ` +
      `inside a transaction trx ${figures.rawTrx.toFixed(2)} / ctx.db ${figures.routedTrx.toFixed(2)} µs`,
  );
}
const mean = (key: keyof typeof sums) => sums[key] / ROUNDS;
const share = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
console.log(
  `RESULT per simple select: outside ${mean('raw').toFixed(2)} → ${mean('routed').toFixed(2)} µs ` +
    `(${share(mean('raw'), mean('routed'))}); inside a transaction ${mean('rawTrx').toFixed(2)} → ` +
    `${mean('routedTrx').toFixed(2)} µs (${share(mean('rawTrx'), mean('routedTrx'))})`,
);
await routed.destroy();
