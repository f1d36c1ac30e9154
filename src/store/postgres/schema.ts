import { ConfigError } from '../../errors.js';
import { Database } from './connection.js';
import type { StoreSettings, VectorsSetting } from '../settings.js';
import { DROP_FACTS_SQL, FACTS_SCHEMA_SQL, FACTS_TABLES } from './schema-facts.js';
import { prepareVectors, vectorKind, vectorsSql, type VectorKind } from './schema-vectors.js';

/**
 * The database's tables. `wiki_pages` holds every page once, as the newest version any
 * replica has offered: its text (NULL once deleted), content hash and visibility, `stamp`
 * (when that version was made, ms: its last commit's time in the checkout that offered it,
 * or the time a tool wrote it) and `seq` (this database's write counter, which replicas
 * follow). A version replaces another only with a newer stamp (page-rows.ts). The lexical
 * lane's columns hold the page as this project's analysers read it (pg-lexical.ts): `terms`,
 * its distinct terms as a tsvector taken verbatim (no Postgres dictionary re-reads them, so
 * every language the analysers know works), `field_terms` each term's frequency per field
 * and `field_lengths` each field's length, which BM25 needs. `wiki_snapshot` holds one
 * process's engine as of write `seq` — the built-in embedder's state and every page's
 * vector among it — so a replica starts from it instead of training again (snapshot.ts).
 * `wiki_vectors` holds each page's vector, pgvector's or an array (schema-vectors.ts); the
 * facts' tables are in schema-facts.ts.
 */
export const SCHEMA_VERSION = 2;

/** The channel every write is announced on, its payload the write's `seq`. */
export const CHANGES_CHANNEL = 'wiki_pages_changed';

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS wiki_schema (version integer NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE SEQUENCE IF NOT EXISTS wiki_write_seq;
CREATE TABLE IF NOT EXISTS wiki_pages (
  path text PRIMARY KEY,
  content text,
  content_hash text,
  visibility text,
  stamp bigint NOT NULL,
  seq bigint NOT NULL,
  terms tsvector,
  field_terms jsonb,
  field_lengths integer[],
  written_by text NOT NULL DEFAULT '',
  written_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS wiki_pages_seq ON wiki_pages (seq);
CREATE INDEX IF NOT EXISTS wiki_pages_terms ON wiki_pages USING gin (terms);
CREATE TABLE IF NOT EXISTS wiki_snapshot (
  id integer PRIMARY KEY CHECK (id = 1),
  seq bigint NOT NULL,
  bytes bytea NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now()
);
`;

/** The tables `wiki store init` makes; their absence is a database never initialised. */
const TABLES = ['wiki_schema', 'wiki_pages', 'wiki_snapshot', 'wiki_vectors', ...FACTS_TABLES];

/** Create the schema (idempotent) and record its version; a database of another version is refused unless `rebuild`. */
export async function initSchema(db: Database, options: { rebuild?: boolean; vectors?: VectorsSetting } = {}): Promise<{ created: boolean; version: number; vectors: VectorKind }> {
  if (options.rebuild) await db.query(`${DROP_FACTS_SQL}; DROP TABLE IF EXISTS wiki_pages, wiki_snapshot, wiki_vectors, wiki_schema; DROP SEQUENCE IF EXISTS wiki_write_seq`);
  const found = await schemaVersion(db);
  if (found !== undefined) {
    if (found !== SCHEMA_VERSION) throw otherVersion(db, found);
    return { created: false, version: found, vectors: (await vectorKind(db)) ?? 'arrays' };
  }
  const vectors = await prepareVectors(db, options.vectors);
  await db.transaction(async (client) => {
    // Two replicas initialising at once: the second waits, then finds the version row.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['wiki_schema']);
    await client.query(SCHEMA_SQL + FACTS_SCHEMA_SQL + vectorsSql(vectors));
    const { rows } = await client.query('SELECT version FROM wiki_schema');
    if (rows.length === 0) await client.query('INSERT INTO wiki_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
  });
  return { created: true, version: SCHEMA_VERSION, vectors: (await vectorKind(db)) ?? vectors };
}

/** Refuse a database without this version's schema, naming what to run. */
export async function checkSchema(db: Database): Promise<void> {
  const found = await schemaVersion(db);
  if (found === undefined) throw new ConfigError(`database ${db.name} has no wiki schema`, 'run `wiki store init` to create it, then `wiki store sync` to fill it from this checkout');
  if (found !== SCHEMA_VERSION) throw otherVersion(db, found);
}

/** The schema version recorded, or undefined when the tables are missing. */
async function schemaVersion(db: Database): Promise<number | undefined> {
  const present = await db.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = ANY($1)', [TABLES]);
  if (!present.some((row) => row.tablename === 'wiki_schema')) return undefined;
  const rows = await db.query<{ version: number | null }>('SELECT max(version) AS version FROM wiki_schema');
  const version = rows[0]?.version ?? undefined;
  // An older version lacks later tables: it is that version (to migrate), not no schema.
  return version === SCHEMA_VERSION && present.length < TABLES.length ? undefined : version;
}

function otherVersion(db: Database, found: number): ConfigError {
  return found > SCHEMA_VERSION
    ? new ConfigError(`database ${db.name} has wiki schema version ${found}, newer than this wiki's ${SCHEMA_VERSION}`, 'upgrade wiki on this machine to the version the other replicas run')
    : new ConfigError(
        `database ${db.name} has wiki schema version ${found}, this wiki needs ${SCHEMA_VERSION}`,
        // Every row is derived from the pages, so the migration is a rebuild: nothing is lost.
        'migrate by rebuilding it: `wiki store init --rebuild` drops the wiki_* tables and makes them anew, then `wiki store sync` on each checkout fills them',
      );
}

/** A connection to the configured database, its schema checked: what every reader and writer starts from. */
export async function connectChecked(settings: StoreSettings, env: NodeJS.ProcessEnv): Promise<Database> {
  const db = await Database.connect(settings, env);
  try {
    await checkSchema(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
