import { ConfigError } from '../../errors.js';
import type { VectorsSetting } from '../settings.js';
import type { Database } from './connection.js';

/**
 * The semantic lane's vectors in the database: `wiki_vectors` holds each page's vector as
 * one embedder model made it (`model`: the embedder's configuration and, for the built-in
 * one, its trained model), for the text with `content_hash`. With pgvector the column is a
 * `vector` ranked by the database (`<=>`, cosine distance); without it a `real[]` the
 * processes read and rank themselves. The column's type records which (`vectorKind`).
 *
 * The index is HNSW, made per dimension count as vectors of it first arrive (an expression
 * index `embedding::vector(n)`, partial on `dims = n`, since the column itself has no fixed
 * size: the configured embedder decides it). HNSW rather than IVFFlat because pages arrive
 * one by one into a table that starts empty: IVFFlat's lists are fitted to the rows present
 * when the index is made and rank worse as the wiki grows away from them; HNSW needs no
 * training and takes rows as they come.
 */
export type VectorKind = 'pgvector' | 'arrays';

export const VECTORS_TABLE = 'wiki_vectors';

export function vectorsSql(kind: VectorKind): string {
  return `
CREATE TABLE IF NOT EXISTS wiki_vectors (
  path text NOT NULL,
  model text NOT NULL,
  content_hash text NOT NULL,
  dims integer NOT NULL,
  embedding ${kind === 'pgvector' ? 'vector' : 'real[]'} NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (path, model)
);`;
}

/** Whether the server offers pgvector, and whether this database has it installed. */
export async function vectorSupport(db: Database): Promise<{ available: boolean; installed: boolean }> {
  const [row] = await db.query<{ available: boolean; installed: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
            EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed`,
  );
  return { available: row?.available === true, installed: row?.installed === true };
}

/**
 * The kind `wiki store init` makes, creating the `vector` extension where the server has it
 * and the setting allows. `pgvector` asked for on a server without it is an error naming
 * what to install; `auto` falls to arrays only where the server has no pgvector to install.
 */
export async function prepareVectors(db: Database, setting: VectorsSetting = 'auto'): Promise<VectorKind> {
  if (setting === 'arrays') return 'arrays';
  const { available, installed } = await vectorSupport(db);
  if (installed) return 'pgvector';
  if (!available) {
    if (setting === 'pgvector') throw await noPgvector(db);
    return 'arrays';
  }
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (error) {
    throw new ConfigError(
      `could not create the vector extension in ${db.name}: ${(error as Error).message}`,
      'ask the database owner to run `CREATE EXTENSION vector;` in it, then `wiki store init` again; or `wiki config set store.vectors arrays` to rank vectors in each process',
    );
  }
  return 'pgvector';
}

/** The kind the schema was made with, from its column's type; undefined before `wiki store init`. */
export async function vectorKind(db: Database): Promise<VectorKind | undefined> {
  const [row] = await db.query<{ udt_name: string }>(
    "SELECT udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'wiki_vectors' AND column_name = 'embedding'",
  );
  if (!row) return undefined;
  return row.udt_name === 'vector' ? 'pgvector' : 'arrays';
}

/** The kind to rank with, refusing a database whose vectors are arrays when the configuration asks for pgvector. */
export async function checkVectors(db: Database, setting: VectorsSetting = 'auto'): Promise<VectorKind> {
  const kind = (await vectorKind(db)) ?? 'arrays';
  if (setting !== 'pgvector' || kind === 'pgvector') return kind;
  const { available } = await vectorSupport(db);
  if (!available) throw await noPgvector(db);
  throw new ConfigError(
    `database ${db.name} keeps vectors as arrays, but store.vectors is pgvector`,
    'the server has pgvector now: `wiki store init --rebuild` remakes the tables with a vector column, then `wiki store sync` fills them',
  );
}

/** What `wiki status` and `wiki store init` say of the vectors. */
export function describeVectors(kind: VectorKind, setting: VectorsSetting = 'auto', available = false): string {
  if (kind === 'pgvector') return 'pgvector';
  if (setting === 'arrays') return 'arrays (store.vectors is arrays)';
  return available ? 'arrays (the server has pgvector now: `wiki store init --rebuild` to use it)' : 'arrays (no pgvector on this server)';
}

async function noPgvector(db: Database): Promise<ConfigError> {
  const [row] = await db.query<{ major: string }>("SELECT current_setting('server_version_num')::int / 10000 AS major");
  const major = row?.major ?? 'N';
  return new ConfigError(
    `database ${db.name} has no pgvector, and store.vectors is pgvector`,
    `install it on the server (Debian/Ubuntu: \`apt install postgresql-${major}-pgvector\`; a managed database: enable its \`vector\` extension), then run \`wiki store init\`; or \`wiki config set store.vectors auto\` to rank vectors as arrays in each process`,
  );
}

/** The HNSW index for vectors of `dims` dimensions, made once (a second replica making it at once is no error). */
export async function ensureVectorIndex(db: Database, dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims <= 0) return;
  try {
    await db.query(`CREATE INDEX IF NOT EXISTS wiki_vectors_hnsw_${dims} ON wiki_vectors USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE dims = ${dims}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 42P07/23505: made by another replica meanwhile. Above pgvector's HNSW limit (2,000
    // dimensions) there is no index: the database ranks by reading every vector.
    if (code === '42P07' || code === '23505' || code === '54000') return;
    throw error;
  }
}
