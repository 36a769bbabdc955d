import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';
import { loadColumns } from '../../platform/diy/data-table.ts';
import {
  dialectOf,
  ensureSearchIndex,
  ensureTrigramExtension,
  ensureUserSearchIndex,
} from '../../platform/diy/text-search.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * The text-search index (docs/search.md): on PostgreSQL the `pg_trgm` extension and GIN trigram indexes, on
 * SQLite FTS5 tables with the trigram tokenizer kept by triggers; for users and for every form published so
 * far (later forms get theirs when published).
 */
export const m0015TextSearch: Migration = {
  name: '0015-text-search',
  async up(db: Db) {
    const dialect = dialectOf(db);
    if (dialect === 'postgres') await ensureTrigramExtension(db);
    await ensureUserSearchIndex(db, dialect);
    const forms = await db.selectFrom('diy_table_version').select('table_id').distinct().execute();
    for (const { table_id } of forms) {
      const id = Number(table_id);
      await ensureSearchIndex(db, dialect, id, await loadColumns(db, id));
    }
  },
};
