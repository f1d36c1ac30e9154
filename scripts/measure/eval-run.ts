import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configSchema, type WikiConfig } from '../../src/config/schema.js';
import { initWorkspace } from '../../src/operations/init.js';
import { serialisePage } from '../../src/wiki/page.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';
import { openSearchIndex } from '../../src/search/index.js';
import type { SearchTuning } from '../../src/search/fusion/tuning.js';
import { Bm25Baseline } from './bm25-baseline.js';
import { judgedQrels, type Collection, type CollectionDoc } from './collection.js';
import { meanScores, type Scores } from './metrics.js';

/**
 * Runs a test collection through `wiki search`: one page per document in a temporary
 * workspace, every query searched, metrics per configuration.
 */
export interface EvalVariant {
  name: string;
  /** Overrides of wiki.config.json's `search` section. */
  search?: Record<string, unknown>;
  tuning?: Partial<SearchTuning>;
}

export interface EvalRow extends Scores {
  name: string;
  seconds: number;
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
  return { name, ...meanScores(runs, judgedQrels(collection)), seconds: (performance.now() - started) / 1000 };
}

export async function evaluateVariant(root: string, collection: Collection, variant: EvalVariant): Promise<EvalRow> {
  const started = performance.now();
  const schema = await loadSchema(root);
  const config: WikiConfig = configSchema.parse({ search: variant.search ?? {} });
  const index = await openSearchIndex(root, schema, config, { tuning: variant.tuning, env: {} });
  const idByKey = new Map(collection.docs.map((doc) => [docKey(doc.id), doc.id]));
  const runs = new Map<string, string[]>();
  for (const query of collection.queries) {
    const response = await index.search(query.text, { limit: DEPTH, snippets: false, syntax: false });
    runs.set(query.id, response.results.map((r) => idByKey.get(r.key) ?? r.key));
  }
  await index.close();
  return { name: variant.name, ...meanScores(runs, judgedQrels(collection)), seconds: (performance.now() - started) / 1000 };
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
