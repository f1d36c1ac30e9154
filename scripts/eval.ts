import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { judgedQrels, loadCollection, type Collection } from './measure/collection.js';
import {
  baselineRow,
  evaluateOverSeeds,
  removeWorkspace,
  standardVariants,
  writeCollectionWorkspace,
  type EvalRow,
  type EvalVariant,
} from './measure/eval-run.js';
import { formatSourceChange, measureSourceChange } from './measure/source-change.js';
import { measureFacts, type FactsMeasurement } from './measure/facts.js';
import { meansByRelevantCount } from './measure/metrics.js';
import { ALTERATION_KINDS, GROUNDING_RULES_CHANGED, heldOutNote, measureWikiFolder, playedWikis, type AlterationKind, type PageGroundingMeasurement } from './measure/grounding-pages.js';
import { packageRoot } from '../src/util/package-root.js';
import { formatLabels, measureLabels, playedWikiFolders } from './measure/search-labels.js';
import { evaluateLanguageSet, evaluateMixedWiki, languageSets, printLanguageSummary, type LanguageSummary } from './measure/language-sets.js';

/**
 * `npm run eval [-- --set NAME] [--data DIR] [--search JSON] [--tuning JSON] [--fused-only] [--seeds N] [--by-relevant] [--store postgres|pglite]`
 *
 * Search quality on four test collections: nDCG@10, Recall@10 and Recall@100 for plain
 * BM25 with and without Porter stemming computed in the same run, each lane alone, and
 * the fused default, which is set against the stemmed BM25. Cranfield and CACM are for
 * development (every constant is chosen on them, see docs/search-eval.md); CISI and SciFact
 * are held out: reported, never tuned on. Then, apart, the sets in other languages under
 * test/fixtures/eval-lang/ (`--set fr` runs one), each against a BM25 with its own analyser.
 */
const DEVELOPMENT_SETS = ['cranfield', 'cacm'];
const HELD_OUT_SETS = ['cisi', 'scifact'];

const HELP = `usage: npm run eval -- [--set NAME] [--data DIR] [--search JSON] [--tuning JSON] [--fused-only] [--seeds N] [--by-relevant] [--store postgres|pglite]
  --set NAME     one collection (default: all four — ${[...DEVELOPMENT_SETS, ...HELD_OUT_SETS].join(', ')} — then every
                 set in another language in test/fixtures/eval-lang: ${languageSets().join(', ')})
  --languages    only the sets in other languages
  --data DIR     folder holding the collections (default: ../shared/eval next to the package)
  --search JSON  overrides of wiki.config.json's "search" section, e.g. '{"k":30}'
  --tuning JSON  overrides of internal settings (lexical boosts, fusion, LSA options)
  --fused-only   skip the lanes-alone runs
  --seeds N      each row the mean over N training seeds of the built-in embedder (default 1)
  --by-relevant  nDCG@10 of each row by the number of documents judged relevant to the query
  --store postgres  the index in the Postgres database WIKI_DATABASE_URL names (its wiki_* tables dropped and made anew)
  --store pglite    the index in a PGlite database in this process, its vectors ranked by pgvector (dev dependency)
  --facts        only the facts measurements (extraction over all four collections, grounding precision)
  --sources      only what a changed source does to the pages drawing on it (citations moved, sentences and pages stale)
  --labels       only search's strong/weak labels on every played wiki with a search-questions.json (with each miss)
  --grounding    only the grounding of real pages: the sample wiki and every test/fixtures/played-wiki* (held out when its held-out.json says it was made after the last rule change)`;

const FACT_SETS = [...DEVELOPMENT_SETS, ...HELD_OUT_SETS];

/** A played wiki's pages against a second version of their source: what following the change does. */
function evaluateSourceChange(): void {
  const folder = path.join(packageRoot(), 'test', 'fixtures', 'source-change');
  if (existsSync(folder)) console.log(formatSourceChange('SE-0296 v1 → v2, played-wiki-8 pages', measureSourceChange(folder, 'raw/swift-se0296-async-await.md')));
  const fenced = path.join(packageRoot(), 'test', 'fixtures', 'source-change-fenced');
  if (existsSync(fenced)) {
    console.log(formatSourceChange('WICG fenced-frame unpartitioned-data explainer, upstream 9f5ca7c → 27aaf88, played pages', measureSourceChange(fenced, 'raw/fenced-frames-unpartitioned-data.md')));
  }
}

function parseJsonOption(value: string | undefined, name: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as Record<string, unknown>;
  } catch {
    throw new Error(`--${name} is not valid JSON: ${value}`);
  }
}

function format(row: EvalRow, baseline: number): string {
  const ratio = baseline > 0 ? row.ndcg10 / baseline : 0;
  return `${row.name.padEnd(16)} ${row.ndcg10.toFixed(4)}   ${row.recall10.toFixed(4)}     ${row.recall100.toFixed(4)}      ${ratio.toFixed(3)}×        ${row.seconds.toFixed(1)} s`;
}

interface SetSummary {
  set: string;
  heldOut: boolean;
  docs: number;
  fused: number;
  stemmed: number;
}

interface SetOptions {
  seeds: number;
  byRelevant: boolean;
}

async function evaluateSet(dataDir: string, set: string, variants: EvalVariant[], options: SetOptions): Promise<SetSummary> {
  const collection = await loadCollection(path.join(dataDir, set));
  const heldOut = !DEVELOPMENT_SETS.includes(set);
  const role = heldOut ? ' — HELD OUT: reported, never tuned on' : ' — development set';
  console.log(`\n${set}: ${collection.docs.length} documents, ${collection.queries.length} queries${role}`);
  console.log(`${'run'.padEnd(16)} nDCG@10  Recall@10  Recall@100  vs stemmed BM25  time`);
  const stemmed = baselineRow(collection, true);
  console.log(format(baselineRow(collection, false), stemmed.ndcg10));
  console.log(format(stemmed, stemmed.ndcg10));
  const root = await writeCollectionWorkspace(collection);
  let fused = 0;
  const rows: EvalRow[] = [stemmed];
  try {
    for (const variant of variants) {
      const row = await evaluateOverSeeds(root, collection, variant, options.seeds);
      console.log(format(row, stemmed.ndcg10));
      rows.push(row);
      if (variant.name === 'fused') fused = row.ndcg10;
    }
  } finally {
    await removeWorkspace(root);
  }
  if (options.byRelevant) printByRelevant(collection, rows);
  return { set, heldOut, docs: collection.docs.length, fused, stemmed: stemmed.ndcg10 };
}

/** Each row's nDCG@10 over the queries with 1–2, 3–5, 6–15 and 16+ relevant documents. */
function printByRelevant(collection: Collection, rows: readonly EvalRow[]): void {
  const qrels = judgedQrels(collection);
  const table = rows.map((row) => ({ name: row.name, buckets: meansByRelevantCount(row.perQuery, qrels) }));
  console.log(`\nnDCG@10 by relevant documents per query`);
  console.log(`${'relevant'.padEnd(10)} ${'queries'.padStart(7)}  ${table.map((t) => t.name.padStart(14)).join(' ')}`);
  table[0]?.buckets.forEach((bucket, b) => {
    if (bucket.queries === 0) return;
    const cells = table.map((t) => t.buckets[b]!.mean.toFixed(4).padStart(14)).join(' ');
    console.log(`${bucket.label.padEnd(10)} ${String(bucket.queries).padStart(7)}  ${cells}`);
  });
}

function printSummary(summaries: readonly SetSummary[]): void {
  console.log('\n| set | docs | wiki search | stemmed BM25 | ratio |');
  console.log('| --- | --- | --- | --- | --- |');
  let logSum = 0;
  for (const s of summaries) {
    const ratio = s.stemmed > 0 ? s.fused / s.stemmed : 0;
    logSum += Math.log(ratio);
    const name = s.heldOut ? `${s.set} (held out)` : s.set;
    console.log(`| ${name} | ${s.docs.toLocaleString('en')} | ${s.fused.toFixed(3)} | ${s.stemmed.toFixed(3)} | ${ratio.toFixed(3)}× |`);
  }
  if (summaries.length > 1) console.log(`\ngeometric mean of the ratios: ${Math.exp(logSum / summaries.length).toFixed(3)}×`);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
}

function formatFacts(set: string, m: FactsMeasurement): string {
  const g = m.grounding;
  return [
    `${set.padEnd(10)} ${m.sources} sources, ${m.megabytes.toFixed(2)} MB in ${m.seconds.toFixed(2)} s = ${(m.megabytes / m.seconds).toFixed(2)} MB/s;`,
    `${m.facts} facts (${(m.facts / m.sources).toFixed(1)} per source), ${m.duplicatesMerged} duplicates merged;`,
    `re-run unchanged: ${m.rerunUnchanged ? 'store byte-identical' : 'STORE CHANGED'}; one source edited: ${m.editLocal ? 'only its facts changed' : 'OTHER FACTS CHANGED'};`,
    `grounding: altered flagged ${percent(g.alteredFlagged, g.altered)} of ${g.altered}, supported flagged ${percent(g.supportedFlagged, g.supported)} of ${g.supported}`,
  ].join('\n           ');
}

function formatPageGrounding(name: string, made: string, m: PageGroundingMeasurement): string {
  const a = m.altered;
  const caught = (kinds: readonly AlterationKind[], field: 'flagged' | 'warned'): string => {
    const planted = kinds.reduce((sum, kind) => sum + a[kind].planted, 0);
    return `${percent(kinds.reduce((sum, kind) => sum + a[kind][field], 0), planted)}/${planted}`;
  };
  const both = (kinds: readonly AlterationKind[]): string => `${caught(kinds, 'flagged')} ${caught(kinds, 'warned')}`.padEnd(26);
  const row = [
    name.padEnd(20),
    made.padEnd(22),
    String(m.claims).padStart(6),
    percent(m.flagged, m.claims).padStart(9),
    percent(m.questions, m.claims).padStart(9),
    '  ',
    both(['number']),
    both(['name', 'tool']),
    both(['negation']),
    both(ALTERATION_KINDS),
  ].join(' ');
  const rules = Object.entries(m.byRule).map(([rule, n]) => `${rule} ${n}`).join(', ') || 'none';
  return `${row}\n${''.padEnd(21)}names: capitalised ${both(['name']).trim()}, lower-case tool names ${both(['tool']).trim()}; findings: ${rules}`;
}

async function evaluatePageGrounding(): Promise<void> {
  console.log(`\ngrounding of real pages, rules last changed ${GROUNDING_RULES_CHANGED} (scripts/measure/grounding-pages.ts): claim sentences with a warning (target ≤ 3%) or a question as written;`);
  console.log('planted changes caught by a warning or a question (target ≥ 90%) and by a warning (target ≥ 80% of numbers and names), before any review');
  console.log(`${'wiki'.padEnd(20)} ${'made'.padEnd(22)} ${'claims'.padStart(6)} ${'warnings'.padStart(9)} ${'questions'.padStart(9)}    ${'numbers: caught, warned'.padEnd(26)} ${'names'.padEnd(26)} ${'negations'.padEnd(26)} all`);
  console.log(formatPageGrounding('example', 'sample wiki', await measureWikiFolder('example')));
  for (const folder of await playedWikis(path.join(packageRoot(), 'test', 'fixtures'))) {
    console.log(formatPageGrounding(path.basename(folder), await heldOutNote(folder), await measureWikiFolder(folder)));
  }
}

/** Search labels on every played wiki folder that has a question set (held-out ones marked in their file). */
async function evaluateSearchLabels(withMisses: boolean): Promise<void> {
  console.log('\nsearch labels on played wikis: right page first / in the top 3 / labelled strong, of questions on subjects the wiki has a page on; absent subjects should get no strong hit');
  for (const folder of await playedWikiFolders(path.join(packageRoot(), 'test', 'fixtures'))) {
    const m = await measureLabels(folder);
    console.log(formatLabels(m));
    if (withMisses) for (const miss of m.misses) console.log(miss);
  }
}

async function evaluateFacts(dataDir: string): Promise<void> {
  console.log('\nfacts: extraction over each collection as raw sources, then grounding of planted pages (target: altered ≥ 90%, supported ≤ 10%)');
  for (const set of FACT_SETS) {
    if (!existsSync(path.join(dataDir, set, 'docs.jsonl'))) continue;
    console.log(formatFacts(set, await measureFacts(await loadCollection(path.join(dataDir, set)))));
  }
}

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      set: { type: 'string' },
      data: { type: 'string' },
      search: { type: 'string' },
      tuning: { type: 'string' },
      'fused-only': { type: 'boolean' },
      seeds: { type: 'string' },
      'by-relevant': { type: 'boolean' },
      store: { type: 'string' },
      facts: { type: 'boolean' },
      grounding: { type: 'boolean' },
      sources: { type: 'boolean' },
      labels: { type: 'boolean' },
      languages: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const dataDir = path.resolve(values.data ?? path.join(packageRoot(), '..', 'shared', 'eval'));
  if (values.labels) {
    await evaluateSearchLabels(true);
    return;
  }
  if (values.grounding) {
    await evaluatePageGrounding();
    return;
  }
  if (values.sources) {
    evaluateSourceChange();
    return;
  }
  if (values.facts) {
    await evaluatePageGrounding();
    await evaluateFacts(dataDir);
    return;
  }
  const inLanguages = languageSets();
  const picked = values.set ? [values.set] : values.languages ? inLanguages : [...DEVELOPMENT_SETS, ...HELD_OUT_SETS, ...inLanguages];
  const languageSetsPicked = picked.filter((set) => inLanguages.includes(set));
  const sets = picked.filter((set) => !inLanguages.includes(set));
  for (const set of sets) {
    if (!existsSync(path.join(dataDir, set, 'docs.jsonl'))) throw new Error(`no collection at ${path.join(dataDir, set)} (use --data DIR)`);
  }
  const base: EvalVariant = { name: 'fused' };
  const search = parseJsonOption(values.search, 'search');
  const tuning = parseJsonOption(values.tuning, 'tuning');
  if (search) base.search = search;
  if (tuning) base.tuning = tuning;
  if (values.store !== undefined) {
    if (values.store === 'pglite') {
      base.store = 'pglite';
      console.log('search index: in PGlite, vectors ranked by pgvector');
    } else {
      if (values.store !== 'postgres') throw new Error(`--store takes postgres or pglite, not ${values.store}`);
      if (!process.env.WIKI_DATABASE_URL) throw new Error('--store postgres needs WIKI_DATABASE_URL (a database whose wiki_* tables the eval may drop)');
      base.store = 'postgres';
      console.log('search index: in Postgres (WIKI_DATABASE_URL)');
    }
  }
  const variants = values['fused-only'] ? [base] : standardVariants(base);
  const seeds = values.seeds === undefined ? 1 : Number(values.seeds);
  if (!Number.isInteger(seeds) || seeds < 1) throw new Error(`--seeds takes a whole number of at least 1, not ${values.seeds}`);
  const summaries: SetSummary[] = [];
  for (const set of sets) summaries.push(await evaluateSet(dataDir, set, variants, { seeds, byRelevant: values['by-relevant'] ?? false }));
  if (summaries.length > 0) printSummary(summaries);
  const languageSummaries: LanguageSummary[] = [];
  if (languageSetsPicked.length > 0) console.log('\nother languages (test/fixtures/eval-lang): never tuned on; each against a BM25 with its language’s analyser');
  for (const set of languageSetsPicked) languageSummaries.push(await evaluateLanguageSet(set, variants, seeds, format));
  printLanguageSummary(languageSummaries);
  if (!values.set) await evaluateMixedWiki(languageSummaries, seeds);
  if (!values.set && !values.languages) {
    await evaluateSearchLabels(false);
    await evaluatePageGrounding();
    await evaluateFacts(dataDir);
    evaluateSourceChange();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`eval: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
