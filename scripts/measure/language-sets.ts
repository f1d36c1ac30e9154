import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../../src/search/text/analyze.js';
import { languageOf } from '../../src/search/language/languages.js';
import { pageLanguage } from '../../src/search/language/page-language.js';
import { SEGMENTED_SCRIPT } from '../../src/search/language/segment.js';
import { packageRoot } from '../../src/util/package-root.js';
import { Bm25Baseline } from './bm25-baseline.js';
import { loadCollection, type Collection } from './collection.js';
import { evaluateOverSeeds, removeWorkspace, rowOf, writeCollectionWorkspace, type EvalRow, type EvalVariant } from './eval-run.js';

/**
 * Search in other languages than English: a collection per language under
 * test/fixtures/eval-lang/<language>/ (the folder is the BCP 47 tag; same files as
 * shared/eval's), its pages written without `lang`, so each is analysed in the language
 * detected. Measured against a same-run BM25 over that language's analyser (its stemmer,
 * or the segmenter for an unspaced script) and a BM25 over plain words (character pairs
 * for an unspaced script), and kept apart from the English sets.
 */
export const LANGUAGE_SETS_DIR = path.join(packageRoot(), 'test', 'fixtures', 'eval-lang');

export function languageSets(): string[] {
  if (!existsSync(LANGUAGE_SETS_DIR)) return [];
  return readdirSync(LANGUAGE_SETS_DIR)
    .filter((name) => existsSync(path.join(LANGUAGE_SETS_DIR, name, 'docs.jsonl')))
    .sort();
}

export interface LanguageSummary {
  set: string;
  docs: number;
  fused: number;
  analysed: number;
}

const DEPTH = 100;

/** Documents numbered 1…n: a collection's ids name its sections in English, which would leak into page keys. */
function numbered(collection: Collection): Collection {
  const byId = new Map(collection.docs.map((doc, i) => [doc.id, String(i + 1)]));
  const qrels = new Map([...collection.qrels].map(([query, judged]) => [query, new Map([...judged].map(([doc, gain]) => [byId.get(doc) ?? doc, gain]))]));
  return { ...collection, docs: collection.docs.map((doc) => ({ ...doc, id: byId.get(doc.id)! })), qrels };
}

/** Plain words, lower case; a run of an unspaced script as its overlapping character pairs. */
function plainWords(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    if (!SEGMENTED_SCRIPT.test(word)) {
      out.push(word);
      continue;
    }
    const chars = Array.from(word);
    if (chars.length === 1) out.push(word);
    for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
  }
  return out;
}

function baseline(collection: Collection, name: string, analyser: (text: string) => string[]): EvalRow {
  const started = performance.now();
  const bm25 = new Bm25Baseline(collection.docs, 1.2, 0.75, false, analyser);
  const runs = new Map(collection.queries.map((q) => [q.id, bm25.search(q.text, DEPTH)]));
  return rowOf(name, runs, collection, started);
}

export async function evaluateLanguageSet(
  set: string,
  variants: readonly EvalVariant[],
  seeds: number,
  format: (row: EvalRow, baseline: number) => string,
): Promise<LanguageSummary> {
  const language = languageOf(set);
  if (!language) throw new Error(`test/fixtures/eval-lang/${set}: the folder name is no language tag`);
  const collection = numbered(await loadCollection(path.join(LANGUAGE_SETS_DIR, set)));
  const detected = new Map<string, number>();
  for (const doc of collection.docs) {
    const found = pageLanguage(undefined, doc.title, '', doc.text);
    detected.set(found, (detected.get(found) ?? 0) + 1);
  }
  const told = [...detected].map(([code, n]) => `${code} ${n}`).join(', ');
  console.log(`\n${set}: ${collection.docs.length} documents, ${collection.queries.length} queries — pages without lang, detected as: ${told}`);
  console.log(`${'run'.padEnd(16)} nDCG@10  Recall@10  Recall@100  vs analysed BM25  time`);
  const analysed = baseline(collection, 'BM25 analysed', (text) => analyze(text, language));
  console.log(format(baseline(collection, 'BM25 words', plainWords), analysed.ndcg10));
  console.log(format(analysed, analysed.ndcg10));
  const root = await writeCollectionWorkspace(collection);
  let fused = 0;
  try {
    for (const variant of variants) {
      const row = await evaluateOverSeeds(root, collection, variant, seeds);
      console.log(format(row, analysed.ndcg10));
      if (variant.name === 'fused') fused = row.ndcg10;
    }
  } finally {
    await removeWorkspace(root);
  }
  return { set, docs: collection.docs.length, fused, analysed: analysed.ndcg10 };
}

export function printLanguageSummary(summaries: readonly LanguageSummary[]): void {
  if (summaries.length === 0) return;
  console.log('\n| language set | docs | wiki search | BM25 with its analyser | ratio |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const s of summaries) {
    const ratio = s.analysed > 0 ? s.fused / s.analysed : 0;
    console.log(`| ${s.set} | ${s.docs} | ${s.fused.toFixed(3)} | ${s.analysed.toFixed(3)} | ${ratio.toFixed(3)}× |`);
  }
}

/**
 * Every language set in one wiki, each query against all of them: what a mixed wiki costs.
 * Each page is analysed in its own language, each query in every language the wiki holds;
 * the figure is set beside the fused figure of each set alone (same queries, its own wiki).
 */
export async function evaluateMixedWiki(alone: readonly LanguageSummary[], seeds: number): Promise<number | undefined> {
  const sets = alone.map((summary) => summary.set);
  if (sets.length < 2) return undefined;
  const parts = await Promise.all(sets.map((set) => loadCollection(path.join(LANGUAGE_SETS_DIR, set))));
  const tag = (set: string, id: string): string => `${set}-${id}`;
  const mixed: Collection = numbered({
    name: sets.join('+'),
    docs: parts.flatMap((part, i) => part.docs.map((doc) => ({ ...doc, id: tag(sets[i]!, doc.id) }))),
    queries: parts.flatMap((part, i) => part.queries.map((query) => ({ ...query, id: tag(sets[i]!, query.id) }))),
    qrels: new Map(
      parts.flatMap((part, i) => [...part.qrels].map(([query, judged]) => [tag(sets[i]!, query), new Map([...judged].map(([doc, gain]) => [tag(sets[i]!, doc), gain]))] as const)),
    ),
  });
  const root = await writeCollectionWorkspace(mixed);
  try {
    const row = await evaluateOverSeeds(root, mixed, { name: 'fused' }, seeds);
    const queries = alone.map((summary, i) => parts[i]!.queries.length);
    const each = alone.reduce((sum, summary, i) => sum + summary.fused * queries[i]!, 0) / queries.reduce((a, b) => a + b, 0);
    console.log(`\nmixed wiki (${sets.join(' + ')} in one wiki, ${mixed.docs.length} pages, ${mixed.queries.length} queries): fused nDCG@10 ${row.ndcg10.toFixed(4)}; each set in a wiki of its own: ${each.toFixed(4)}`);
    return row.ndcg10;
  } finally {
    await removeWorkspace(root);
  }
}
