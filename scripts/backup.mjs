// `npm run backup [-- <target file>]`: a consistent copy of the embedded SQLite database while the server
// runs, through SQLite's online backup API (pages are copied in steps; writers are not blocked for long).
// PostgreSQL is backed up with pg_dump instead (docs/operations.md).
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';

const env = (name) => (process.env[name] ?? '').trim();

if (env('DATABASE_URL')) {
  console.error('DATABASE_URL points at PostgreSQL: back it up with pg_dump (see docs/operations.md).');
  process.exit(1);
}

const dataDir = resolve(env('DATA_DIR') || './data');
const source = join(dataDir, 'shuzhi.db');
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
const target = resolve(process.argv[2] ?? join(dataDir, 'backups', `shuzhi-${stamp}.db`));
mkdirSync(dirname(target), { recursive: true });

let db;
try {
  db = new Database(source, { readonly: true, fileMustExist: true });
} catch (error) {
  console.error(`Cannot open ${source}: ${error.message}`);
  process.exit(1);
}
try {
  const started = Date.now();
  const { totalPages } = await db.backup(target);
  console.log(`Backed up ${source} to ${target} (${totalPages} pages, ${Date.now() - started} ms)`);
} catch (error) {
  console.error(`Backup failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  db.close();
}
