import { hostname } from 'node:os';
import { UsageError } from '../../errors.js';
import type { Contract } from '../../wiki/contract.js';
import type { StoreSettings } from '../../store/settings.js';
import type { SearchSettings } from '../../search/settings.js';
import { engineSetup } from '../../search/index.js';
import { languageOf } from '../../search/language/languages.js';
import { PostgresSearchIndex } from '../../store/postgres/pg-index.js';
import { Database } from '../../store/postgres/connection.js';
import { storeCounts, type StoreCounts } from '../../store/postgres/page-rows.js';
import { checkSchema, initSchema, SCHEMA_VERSION } from '../../store/postgres/schema.js';
import { syncCheckout, type SyncReport } from '../../store/postgres/sync.js';
import { checkVectors, describeVectors, vectorSupport, type VectorKind } from '../../store/postgres/schema-vectors.js';

/** `wiki store init|sync`: the Postgres store's set-up, from the configuration's `store` section. */
export interface StoreWorkspace {
  root: string;
  contract: Contract;
  config: StoreSettings & SearchSettings;
}

export interface StoreInitReport {
  database: string;
  created: boolean;
  schemaVersion: number;
  /** Where the semantic lane's vectors are ranked: `pgvector`, or `arrays (why)`. */
  vectors: string;
}

export async function storeInit(ws: StoreWorkspace, options: { rebuild?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<StoreInitReport> {
  const db = await connectConfigured(ws, options.env);
  try {
    const setting = ws.config.store.vectors;
    const { created, version, vectors } = await initSchema(db, { rebuild: options.rebuild === true, vectors: setting });
    // A schema made before pgvector was asked for keeps its arrays: say so as an error, with the rebuild to run.
    await checkVectors(db, setting);
    return { database: db.name, created, schemaVersion: version, vectors: describeVectors(vectors, setting, (await vectorSupport(db)).available) };
  } finally {
    await db.close();
  }
}

export interface StoreSyncReport extends SyncReport {
  database: string;
  store: StoreCounts;
}

/**
 * Offer this checkout's pages, then fold every row into an engine and keep it in the
 * database, so replicas start from it rather than each analysing and embedding the pages.
 */
export async function storeSync(ws: StoreWorkspace, options: { env?: NodeJS.ProcessEnv } = {}): Promise<StoreSyncReport> {
  const env = options.env ?? process.env;
  const db = await connectConfigured(ws, env);
  let report: SyncReport;
  let database: string;
  let vectors: VectorKind;
  try {
    await checkSchema(db);
    database = db.name;
    vectors = await checkVectors(db, ws.config.store.vectors);
    report = await syncCheckout(db, ws.root, ws.contract, `${hostname()}:${process.pid}`, languageOf(ws.config.language));
  } finally {
    await db.close();
  }
  const { semanticSetup, params } = engineSetup(ws.root, ws.config, { env });
  const index = await PostgresSearchIndex.open({ root: ws.root, contract: ws.contract, params, db: await connectConfigured(ws, env), vectors, semantic: semanticSetup, rescanAfterMs: 60_000 });
  try {
    await index.keepEngine();
    return { database, ...report, store: await index.counts() };
  } finally {
    await index.close();
  }
}

export interface StoreState {
  kind: 'postgres';
  database: string;
  schemaVersion: number;
  store: StoreCounts;
  /** Where the semantic lane's vectors live and how they are ranked. */
  vectors: string;
  /** The engine kept in the database for replicas to start from: as of which write, and when; undefined when none is kept. */
  keptEngine: { seq: number; savedAt: string } | undefined;
  /** The facts every replica reads (`wiki facts`, `query --facts`): live facts, live sources and the last source written. */
  facts: { live: number; sources: number; lastWrite: string | undefined };
}

/** What `wiki status` says of the database: its pages and last write (an unreachable one is an error, exit 2). */
export async function storeState(ws: StoreWorkspace, env: NodeJS.ProcessEnv = process.env): Promise<StoreState> {
  const db = await connectConfigured(ws, env);
  try {
    await checkSchema(db);
    const setting = ws.config.store.vectors;
    const kind = await checkVectors(db, setting);
    const [kept] = await db.query<{ seq: string; saved_at: Date }>('SELECT seq, saved_at FROM wiki_snapshot WHERE id = 1');
    const [facts] = await db.query<{ live: number; sources: number; last: Date | null }>(
      `SELECT (SELECT count(*)::int FROM wiki_facts WHERE tombstoned_at IS NULL) AS live,
              (SELECT count(*)::int FROM wiki_fact_sources WHERE sha256 IS NOT NULL) AS sources,
              (SELECT max(written_at) FROM wiki_fact_sources) AS last`,
    );
    return {
      kind: 'postgres',
      database: db.name,
      schemaVersion: SCHEMA_VERSION,
      store: await storeCounts(db),
      vectors: describeVectors(kind, setting, (await vectorSupport(db)).available),
      keptEngine: kept ? { seq: Number(kept.seq), savedAt: kept.saved_at.toISOString() } : undefined,
      facts: { live: facts?.live ?? 0, sources: facts?.sources ?? 0, lastWrite: facts?.last?.toISOString() },
    };
  } finally {
    await db.close();
  }
}

async function connectConfigured(ws: StoreWorkspace, env: NodeJS.ProcessEnv = process.env): Promise<Database> {
  if (ws.config.store.kind !== 'postgres') {
    throw new UsageError('this wiki keeps its search index in files (store.kind is files)', 'set `wiki config set store.kind postgres` and WIKI_DATABASE_URL first');
  }
  return Database.connect(ws.config, env);
}
