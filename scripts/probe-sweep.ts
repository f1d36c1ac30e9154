import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { configSchema } from '../src/config/schema.js';
import { loadSchema } from '../src/wiki/schema-loader.js';
import { openSearchIndex, INDEX_FILE, searchDirectory } from '../src/search/index.js';
import { decodeSnapshotFile } from '../src/search/live/snapshot-file.js';
import { createEmbedder } from '../src/search/lanes/semantic/embedder-factory.js';
import { SemanticLane } from '../src/search/lanes/semantic/semantic.js';
import { withTuning } from '../src/search/fusion/tuning.js';
import type { SearchParams, SearchEngine } from '../src/search/engine.js';
import { strengthProbes } from '../src/search/fusion/semantic-strength.js';
import { analyze } from '../src/search/text/analyze.js';
import { pageDocument } from '../src/search/text/document.js';
import { analysePage } from '../src/search/text/page-analysis.js';
import { readPage } from '../src/wiki/page-read.js';
import { DEFAULT_LSA_OPTIONS } from '../src/search/lanes/semantic/lsa.js';
import { loadCollection, judgedQrels } from './measure/collection.js';
import { docKey, removeWorkspace, writeCollectionWorkspace } from './measure/eval-run.js';
import { ndcgByQuery, meansByRelevantCount } from './measure/metrics.js';
import { packageRoot } from '../src/util/package-root.js';

/**
 * Experiment (development sets only): the real queries' nDCG@10 and the self-supervised
 * probes' MRR over a grid of lane weights, per training seed, in one process.
 */
const DEV = ['cranfield', 'cacm'];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      set: { type: 'string' },
      seeds: { type: 'string' },
      probes: { type: 'string' },
      semantic: { type: 'string' },
      token: { type: 'string' },
      probe: { type: 'string' },
      protect: { type: 'string' },
      idf: { type: 'string' },
    },
  });
  const set = values.set ?? '';
  if (!DEV.includes(set)) throw new Error('development sets only: cranfield or cacm');
  const seeds = Number(values.seeds ?? 1);
  const probeCount = Number(values.probes ?? 200);
  const semanticGrid = (values.semantic ?? '0.5,0.75,1,1.5,2,2.5,3').split(',').map(Number);
  const tokenGrid = (values.token ?? '0.2').split(',').map(Number);
  const probeKind = values.probe ?? 'heldout';
  const collection = await loadCollection(path.join(packageRoot(), '..', 'shared', 'eval', set));
  const qrels = judgedQrels(collection);
  const idByKey = new Map(collection.docs.map((doc) => [docKey(doc.id), doc.id]));
  const root = await writeCollectionWorkspace(collection);
  const schema = await loadSchema(root);
  const config = configSchema.parse({ search: {} });
  const idfGrid = values.idf?.split(',').map(Number);
  const grid = idfGrid ? idfGrid.map((e) => ({ s: e, t: -1 })) : semanticGrid.flatMap((s) => tokenGrid.map((t) => ({ s, t })));
  const real = grid.map(() => [] as Map<string, number>[]);
  const probeMrr = grid.map(() => [] as number[]);
  try {
    for (let i = 0; i < seeds; i++) {
      const seed = DEFAULT_LSA_OPTIONS.seed + i;
      const tuning = withTuning({ lsa: { seed } });
      const index = await openSearchIndex(root, schema, config, { tuning: { lsa: { seed } }, env: {} });
      await index.close();
      const choice = await createEmbedder(config, { env: {}, searchDir: searchDirectory(root), tuning, timeoutMs: 1000, maxRetries: 0 });
      if (!('embedder' in choice)) throw new Error('no embedder');
      const loaded = decodeSnapshotFile(readFileSync(path.join(searchDirectory(root), INDEX_FILE)), { lane: new SemanticLane(choice.embedder) });
      if (!loaded) throw new Error('no snapshot');
      const engine = loaded.engine;
      const base: SearchParams = {
        weights: { ...config.search.weights },
        k: config.search.k,
        pool: config.search.pool,
        lexical: { k1: config.search.bm25.k1, b: config.search.bm25.b, ...tuning.lexical },
        feedback: tuning.feedback,
        fusion: tuning.fusion,
        semanticScale: tuning.semanticScale,
        smoothing: tuning.smoothing,
      };
      const paramsAt = (s: number, t: number): SearchParams =>
        t < 0
          ? { ...base, semanticStrength: tuning.semanticStrength, lexical: { ...base.lexical, idfExponent: s } }
          : { ...base, weights: { lexical: 1, semantic: s, token: t } };
      if (values.protect) {
        const shipped: SearchParams = { ...base, semanticStrength: tuning.semanticStrength };
        for (const [g, r] of values.protect.split(',').map(Number).entries()) {
          const runs = new Map<string, string[]>();
          for (const query of collection.queries) {
            const found = await engine.search(query.text, 100, shipped);
            const pages = [...found.pages];
            const at = pages.findIndex((p) => p.lanes.lexical === 1);
            if (r > 0 && at >= r) pages.splice(r - 1, 0, ...pages.splice(at, 1));
            runs.set(query.id, pages.map((p) => idByKey.get(p.record.key) ?? p.record.key));
          }
          (real[g] ??= []).push(ndcgByQuery(runs, qrels));
        }
        console.error(`seed ${seed}: protect done`);
        continue;
      }
      for (const [g, { s, t }] of grid.entries()) {
        const runs = new Map<string, string[]>();
        for (const query of collection.queries) {
          const found = await engine.search(query.text, 100, paramsAt(s, t));
          runs.set(query.id, found.pages.map((p) => idByKey.get(p.record.key) ?? p.record.key));
        }
        real[g]!.push(ndcgByQuery(runs, qrels));
      }
      const probeParams = grid.map(({ s, t }) => paramsAt(s, t));
      const lanesForProbes = process.env.PROBE_LANES ? (JSON.parse(process.env.PROBE_LANES) as SearchParams['weights']) : undefined;
      const mrr = await probeSweep(engine, root, lanesForProbes ? probeParams.map((p) => ({ ...p, weights: lanesForProbes })) : probeParams, probeCount, probeKind);
      mrr.forEach((m, g) => probeMrr[g]!.push(m));
      console.error(`seed ${seed} done; strength ${engine.semanticStrength?.toFixed(3)}`);
    }
  } finally {
    await removeWorkspace(root);
  }
  if (values.protect) {
    for (const [g, r] of values.protect.split(',').map(Number).entries()) {
      const perQuery = meanMaps(real[g]!);
      const mean = [...perQuery.values()].reduce((a, b) => a + b, 0) / perQuery.size;
      console.log(`protect ${r}: ${mean.toFixed(4)}  ${meansByRelevantCount(perQuery, qrels).map((b) => b.mean.toFixed(4)).join('  ')}`);
    }
    return;
  }
  console.log(`${set}: ${seeds} seeds, ${probeCount} probes (${probeKind})`);
  console.log('sem   tok    nDCG@10  1-2     3-5     6-15    16+     probeMRR');
  for (const [g, { s, t }] of grid.entries()) {
    const perQuery = meanMaps(real[g]!);
    const mean = [...perQuery.values()].reduce((a, b) => a + b, 0) / perQuery.size;
    const buckets = meansByRelevantCount(perQuery, qrels).map((b) => b.mean.toFixed(4));
    const p = probeMrr[g]!.reduce((a, b) => a + b, 0) / probeMrr[g]!.length;
    console.log(`${s.toFixed(2).padEnd(5)} ${t.toFixed(2).padEnd(5)}  ${mean.toFixed(4)}   ${buckets.join('  ')}  ${p.toFixed(4)}  [${probeMrr[g]!.map((x) => x.toFixed(3)).join(' ')}]`);
  }
  const chosen = chosenBySeed(real, probeMrr);
  const perQuery = meanMaps(chosen.perQuery);
  const mean = [...perQuery.values()].reduce((a, b) => a + b, 0) / perQuery.size;
  const label = chosen.weights.map((g) => `${grid[g]!.s}/${grid[g]!.t}`).join(' ');
  console.log(`chosen by the probes per seed (${label}): ${mean.toFixed(4)}  ${meansByRelevantCount(perQuery, qrels).map((b) => b.mean.toFixed(4)).join('  ')}`);
}

/** Per seed, the grid point whose probes' MRR is highest, and that seed's real per-query nDCG@10 there. */
function chosenBySeed(real: Map<string, number>[][], probeMrr: number[][]): { weights: number[]; perQuery: Map<string, number>[] } {
  const seeds = probeMrr[0]!.length;
  const weights: number[] = [];
  const perQuery: Map<string, number>[] = [];
  for (let i = 0; i < seeds; i++) {
    let best = 0;
    for (let g = 1; g < probeMrr.length; g++) if (probeMrr[g]![i]! > probeMrr[best]![i]!) best = g;
    weights.push(best);
    perQuery.push(real[best]![i]!);
  }
  return { weights, perQuery };
}

export function meanMaps(maps: Map<string, number>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of maps[0]!.keys()) out.set(id, maps.reduce((a, m) => a + (m.get(id) ?? 0), 0) / maps.length);
  return out;
}

/** Each probe: its page's title searched with the page's title taken out of the index (lexical and semantic lanes); the page's reciprocal rank. */
async function probeSweep(engine: SearchEngine, root: string, grid: SearchParams[], count: number, kind: string): Promise<number[]> {
  const records = [...engine.docs.records()].sort((a, b) => a.slot - b.slot);
  const probes = strengthProbes(records, (title) => analyze(title).length, count);
  const sums = grid.map(() => 0);
  const perProbe: number[][] = grid.map(() => []);
  const lane = 'lane' in engine.semantic ? engine.semantic.lane : undefined;
  for (const probe of probes) {
    const record = engine.docs.at(probe.slot)!;
    const content = readPage(root, record.path)!;
    const doc = pageDocument(record.path, content);
    const heldOut = kind === 'heldout' || kind === 'summary';
    const query = kind === 'summary' ? doc.summary : probe.title;
    const summaryText = doc.summary.replace(/…$/, '');
    const heldOutDoc = kind === 'summary' ? { ...doc, summary: '', body: doc.body.replace(summaryText, ' ') } : { ...doc, title: '' };
    const tokens = engine.tokens;
    let restoreTokens = (): void => undefined;
    if (heldOut) {
      const without = analysePage(heldOutDoc);
      engine.lexical.add(doc.path, without.fields);
      await lane?.embed([{ slot: probe.slot, input: without.embedding }]);
      // The token lane cannot remove a page's terms: the target's score recomputed from the terms it keeps.
      const original = tokens.scoreAll;
      tokens.scoreAll = (terms, isLive, liveCount) => {
        const hits = original.call(tokens, terms, isLive, liveCount).filter((hit) => hit.slot !== probe.slot);
        const kept = original.call(tokens, terms.filter((term) => without.whole.has(term)), isLive, liveCount).find((hit) => hit.slot === probe.slot);
        if (kept) hits.push(kept);
        return hits;
      };
      restoreTokens = () => {
        tokens.scoreAll = original;
      };
    }
    for (const [g, params] of grid.entries()) {
      const found = await engine.search(query, 100, params);
      const at = found.pages.findIndex((p) => p.record.slot === probe.slot);
      if (at >= 0) sums[g]! += 1 / (at + 1);
      perProbe[g]!.push(at >= 0 ? 1 / (at + 1) : 0);
    }
    restoreTokens();
    if (heldOut) {
      const whole = analysePage(doc);
      engine.lexical.add(doc.path, whole.fields);
      await lane?.embed([{ slot: probe.slot, input: whole.embedding }]);
    }
  }
  if (process.env.PROBE_DUMP) appendFileSync(process.env.PROBE_DUMP, JSON.stringify(perProbe) + '\n');
  return sums.map((s) => s / Math.max(1, probes.length));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 2;
});
