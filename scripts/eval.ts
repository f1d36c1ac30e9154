import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCollection } from '../src/search/measure/collection.js';
import {
  baselineRow,
  evaluateVariant,
  removeWorkspace,
  standardVariants,
  writeCollectionWorkspace,
  type EvalRow,
  type EvalVariant,
} from '../src/search/measure/eval-run.js';
import { measureFacts, type FactsMeasurement } from '../src/facts/measure.js';
import { packageRoot } from '../src/util/package-root.js';

/**
 * `npm run eval [-- --set cranfield|cisi] [--data DIR] [--search JSON] [--tuning JSON] [--fused-only]`
 *
 * Search quality on classic test collections: nDCG@10, Recall@10 and Recall@100 for a
 * plain BM25 computed in the same run, each lane alone, and the fused default. Cranfield
 * is for development; CISI is held out (report it, never tune on it).
 */
const HELP = `usage: npm run eval -- [--set cranfield|cisi] [--data DIR] [--search JSON] [--tuning JSON] [--fused-only]
  --set SET      one collection (default: cranfield, then cisi)
  --data DIR     folder holding the collections (default: ../shared/eval next to the package)
  --search JSON  overrides of wiki.config.json's "search" section, e.g. '{"k":30}'
  --tuning JSON  overrides of internal settings (lexical boosts, LSA options)
  --fused-only   skip the lanes-alone runs
  --facts        only the facts measurements (extraction over all four collections, grounding precision)`;

const FACT_SETS = ['cranfield', 'cacm', 'cisi', 'scifact'];

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
  return `${row.name.padEnd(16)} ${row.ndcg10.toFixed(4)}   ${row.recall10.toFixed(4)}   ${row.recall100.toFixed(4)}   ${ratio.toFixed(3)}×   ${row.seconds.toFixed(1)} s`;
}

async function evaluateSet(dataDir: string, set: string, variants: EvalVariant[]): Promise<void> {
  const collection = await loadCollection(path.join(dataDir, set));
  const held = set === 'cisi' ? ' (held out: reported, never tuned on)' : '';
  console.log(`\n${set}: ${collection.docs.length} documents, ${collection.queries.length} queries${held}`);
  console.log(`${'run'.padEnd(16)} nDCG@10  Recall@10  Recall@100  vs BM25  time`);
  const baseline = baselineRow(collection);
  console.log(format(baseline, baseline.ndcg10));
  const root = await writeCollectionWorkspace(collection);
  try {
    for (const variant of variants) console.log(format(await evaluateVariant(root, collection, variant), baseline.ndcg10));
  } finally {
    await removeWorkspace(root);
  }
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
      facts: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const dataDir = path.resolve(values.data ?? path.join(packageRoot(), '..', 'shared', 'eval'));
  if (values.facts) {
    await evaluateFacts(dataDir);
    return;
  }
  const sets = values.set ? [values.set] : ['cranfield', 'cisi'];
  for (const set of sets) {
    if (!existsSync(path.join(dataDir, set, 'docs.jsonl'))) throw new Error(`no collection at ${path.join(dataDir, set)} (use --data DIR)`);
  }
  const base: EvalVariant = { name: 'fused' };
  const search = parseJsonOption(values.search, 'search');
  const tuning = parseJsonOption(values.tuning, 'tuning');
  if (search) base.search = search;
  if (tuning) base.tuning = tuning;
  const variants = values['fused-only'] ? [base] : standardVariants(base);
  for (const set of sets) await evaluateSet(dataDir, set, variants);
  if (!values.set) await evaluateFacts(dataDir);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`eval: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
