import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configSchema, type WikiConfig } from '../../src/config/schema.js';
import { initWorkspace } from '../../src/operations/workspace/init.js';
import { serialisePage } from '../../src/wiki/page.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';
import { openSearchIndex } from '../../src/store/open-index.js';
import { Database } from '../../src/store/postgres/connection.js';
import { initSchema } from '../../src/store/postgres/schema.js';
import { PostgresSearchIndex } from '../../src/store/postgres/pg-index.js';
import { engineSetup } from '../../src/search/index.js';
import type { Contract } from '../../src/wiki/contract.js';
import { pgliteDatabase } from './pglite-database.js';
import type { SearchTuning } from '../../src/search/fusion/tuning.js';
import { DEFAULT_LSA_OPTIONS } from '../../src/search/lanes/semantic/lsa.js';
import { Bm25Baseline } from './bm25-baseline.js';
import { judgedQrels, type Collection, type CollectionDoc } from './collection.js';
import { meanScores, ndcgByQuery, type Scores } from './metrics.js';

/**
 * Runs a test collection through `wiki search`: one page per document in a temporary
 * workspace, every query searched, metrics per configuration.
 */
export interface EvalVariant {
  name: string;
  /** Overrides of wiki.config.json's `search` section. */
  search?: Record<string, unknown>;
  tuning?: Partial<SearchTuning>;
  /**
   * `postgres`: the index in the database WIKI_DATABASE_URL names (its wiki tables made anew
   * for each run); `pglite`: in a PGlite database in this process, vectors ranked by pgvector.
   */
  store?: 'postgres' | 'pglite';
}

export interface EvalRow extends Scores {
  name: string;
  seconds: number;
  /** nDCG@10 of each judged query. */
  perQuery: ReadonlyMap<string, number>;
}

const DEPTH = 100;

export function docKey(id: string): string {
  return `doc-${id.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

/** A one-line summary, as a wiki page would have: the text's first sentence that is not the title. */
function summaryOf(doc: CollectionDoc): string {
  const title = doc.title.replace(/\s*\.\s*$/, '').trim().toLowerCase();
  const sentences = doc.text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
  const first = sentences.find((s) => s.replace(/\s*\.\s*$/, '').trim().toLowerCase() !== title) ?? sentences[0] ?? '';
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}

export async function writeCollectionWorkspace(collection: Collection): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), `wiki-eval-${collection.name}-`));
  await initWorkspace(root);
  const folder = path.join(root, 'wiki', 'concepts');
  await mkdir(folder, { recursive: true });
  for (const doc of collection.docs) {
    const frontmatter = { title: doc.title.replace(/\s*\.\s*$/, '').trim() || docKey(doc.id), summary: summaryOf(doc), type: 'concept' };
    await writeFile(path.join(folder, `${docKey(doc.id)}.md`), serialisePage(frontmatter, `\n${doc.text}\n`));
  }
  return root;
}

export async function removeWorkspace(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

/** The plain BM25 of the same run (k1 1.2, b 0.75, title + text, stopwords), stemmed or not. */
export function baselineRow(collection: Collection, stemmed: boolean): EvalRow {
  const started = performance.now();
  const bm25 = new Bm25Baseline(collection.docs, 1.2, 0.75, stemmed);
  const runs = new Map(collection.queries.map((q) => [q.id, bm25.search(q.text, DEPTH)]));
  const name = stemmed ? 'BM25 stemmed' : 'BM25 unstemmed';
  return rowOf(name, runs, collection, started);
}

export async function evaluateVariant(root: string, collection: Collection, variant: EvalVariant): Promise<EvalRow> {
  const started = performance.now();
  const schema = await loadSchema(root);
  const config: WikiConfig = configSchema.parse({ search: variant.search ?? {}, store: { kind: variant.store ? 'postgres' : 'files' } });
  const env = variant.store === 'postgres' ? { WIKI_DATABASE_URL: process.env.WIKI_DATABASE_URL } : {};
  if (variant.store === 'postgres') {
    const db = await Database.connect(config, env);
    await initSchema(db, { rebuild: true });
    await db.close();
  }
  const index = variant.store === 'pglite' ? await pgliteIndex(root, schema.contract, config, variant) : await openSearchIndex(root, schema, config, { tuning: variant.tuning, env });
  const idByKey = new Map(collection.docs.map((doc) => [docKey(doc.id), doc.id]));
  const runs = new Map<string, string[]>();
  for (const query of collection.queries) {
    const response = await index.search(query.text, { limit: DEPTH, snippets: false, syntax: false });
    runs.set(query.id, response.results.map((r) => idByKey.get(r.key) ?? r.key));
  }
  await index.close();
  return rowOf(variant.name, runs, collection, started);
}

/** An index in a fresh PGlite database, its vectors ranked by pgvector. */
async function pgliteIndex(root: string, contract: Contract, config: WikiConfig, variant: EvalVariant): Promise<PostgresSearchIndex> {
  const db = await pgliteDatabase();
  const { vectors } = await initSchema(db, { vectors: 'pgvector' });
  const { semanticSetup, params } = engineSetup(root, config, { tuning: variant.tuning, env: {} });
  return PostgresSearchIndex.open({ root, contract, params, db, vectors, semantic: semanticSetup, rescanAfterMs: 60_000 });
}

export function rowOf(name: string, runs: ReadonlyMap<string, readonly string[]>, collection: Collection, started: number): EvalRow {
  const qrels = judgedQrels(collection);
  return { name, ...meanScores(runs, qrels), perQuery: ndcgByQuery(runs, qrels), seconds: (performance.now() - started) / 1000 };
}

/**
 * The variant under `seeds` LSA training seeds (the default and the next `seeds − 1`), as
 * one row of their means: the training seed alone moves a fused figure by about 2% (CACM),
 * so a change to the semantic lane is judged on a mean.
 */
export async function evaluateOverSeeds(root: string, collection: Collection, variant: EvalVariant, seeds: number): Promise<EvalRow> {
  if (seeds <= 1) return evaluateVariant(root, collection, variant);
  const first = variant.tuning?.lsa?.seed ?? DEFAULT_LSA_OPTIONS.seed;
  const rows: EvalRow[] = [];
  for (let i = 0; i < seeds; i++) {
    const tuning = { ...variant.tuning, lsa: { ...variant.tuning?.lsa, seed: first + i } };
    rows.push(await evaluateVariant(root, collection, { ...variant, tuning }));
  }
  const mean = (pick: (row: EvalRow) => number): number => rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
  const perQuery = new Map([...rows[0]!.perQuery.keys()].map((id) => [id, mean((row) => row.perQuery.get(id) ?? 0)]));
  return {
    name: variant.name,
    ndcg10: mean((row) => row.ndcg10),
    recall10: mean((row) => row.recall10),
    recall100: mean((row) => row.recall100),
    perQuery,
    seconds: rows.reduce((sum, row) => sum + row.seconds, 0),
  };
}

/** The lanes alone (others at weight 0) and the fused default, each with `base` applied. */
export function standardVariants(base: EvalVariant = { name: 'fused' }): EvalVariant[] {
  const search = base.search ?? {};
  const baseWeights = (search.weights ?? {}) as Record<string, number>;
  const alone = (lane: string): EvalVariant => ({
    name: `${lane} alone`,
    search: { ...search, weights: { lexical: 0, semantic: 0, token: 0, [lane]: 1 } },
    tuning: base.tuning,
  });
  return [alone('lexical'), alone('semantic'), alone('token'), { ...base, search: { ...search, weights: baseWeights } }];
}
