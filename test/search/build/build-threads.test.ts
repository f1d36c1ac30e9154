import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LsaEmbedder } from '../../../src/search/lanes/semantic/embedder.js';
import { IdEmbeddingInput } from '../../../src/search/lanes/semantic/embedder.js';
import { INDEX_FILE, openSearchIndex, searchDirectory } from '../../../src/search/index.js';
import { planBuild } from '../../../src/search/build/build-plan.js';
import { DEFAULT_LSA_OPTIONS, termIdPages, trainLsa, trainingSample } from '../../../src/search/lanes/semantic/lsa.js';
import { syntheticWiki, writeSyntheticWiki } from '../../../scripts/measure/synthetic.js';
import { analyseBatch } from '../../../src/search/build/page-batch.js';
import { decodeSnapshot } from '../../../src/search/live/store.js';
import { withTuning } from '../../../src/search/fusion/tuning.js';
import { configWith, workspaceWith } from '../helpers.js';

/**
 * The build worker runs compiled code (dist/, built before the tests), so these tests
 * load the index from dist/ to get it; loaded from the sources, as everywhere else in the
 * tests, the index has no worker and builds on one thread — the result both must match.
 */
type BuildThreads = typeof import('../../../src/search/build/build-threads.js');
type IndexModule = typeof import('../../../src/search/index.js');
const dist = (module: string): string => new URL(`../../../dist/src/search/${module}`, import.meta.url).href;
const compiledThreads = async (): Promise<BuildThreads> => (await import(dist('build/build-threads.js'))) as BuildThreads;
const compiledIndex = async (): Promise<IndexModule> => (await import(dist('index.js'))) as IndexModule;
const twoCores = os.availableParallelism() >= 2;

async function sectionsOf(root: string): Promise<Record<string, Uint8Array>> {
  return decodeSnapshot(await readFile(path.join(searchDirectory(root), INDEX_FILE))).sections;
}

describe('build worker', () => {
  it(twoCores ? 'starts from the compiled code and analyses pages as this thread does' : 'is not started on one core', async () => {
    const { BuildWorker } = await compiledThreads();
    const worker = BuildWorker.start();
    if (!twoCores) return expect(worker).toBeUndefined();
    expect(worker).toBeDefined();
    const ws = await workspaceWith({});
    const wiki = syntheticWiki(40);
    await writeSyntheticWiki(ws.root, wiki);
    const paths = wiki.pages.map((page) => page.path);
    try {
      const batch = await worker!.analyse(ws.root, paths, true, 'en');
      expect(batch).toEqual(analyseBatch(ws.root, paths, true, 'en'));
    } finally {
      await worker!.close();
    }
  });

  it.runIf(twoCores)('trains the built-in embedder as this thread does, bit for bit', async () => {
    const { BuildWorker } = await compiledThreads();
    const worker = BuildWorker.start()!;
    const options = { dimensions: 8, maxTrainingPages: 30, maxVocabulary: 500, powerIterations: 2, seed: 3, rowNormPower: 0.5, sigmaPower: 0.75 };
    const corpus = termIdPages(syntheticWiki(60).pages.map((page) => page.content.toLowerCase().split(/\W+/).filter(Boolean)));
    try {
      const parts = await worker.trainLsa(trainingSample(corpus, options), options);
      const here = trainLsa(corpus, options);
      expect(parts?.terms).toEqual(here?.terms);
      expect(parts?.basis).toEqual(here?.basis);
      expect(parts?.idf).toEqual(here?.idf);
    } finally {
      await worker.close();
    }
  });

  it.runIf(twoCores)('a worker that is gone is an error the embedder gets over: it trains on this thread', async () => {
    const { BuildWorker } = await compiledThreads();
    const worker = BuildWorker.start()!;
    await worker.close();
    await expect(worker.analyse(os.tmpdir(), [], false, 'en')).rejects.toThrow(/closed/);
    const corpus = termIdPages(syntheticWiki(30).pages.map((page) => page.content.toLowerCase().split(/\W+/).filter(Boolean)));
    const inputs = corpus.pages.map((ids) => new IdEmbeddingInput('', Int32Array.from(ids), corpus.vocabulary));
    const viaWorker = new LsaEmbedder(8);
    const here = new LsaEmbedder(8);
    await viaWorker.train(inputs, (sample, options) => worker.trainLsa(trainingSample(sample, options), options));
    await here.train(inputs);
    expect(viaWorker.notReady).toBeUndefined();
    expect(viaWorker.encodeModel()).toEqual(here.encodeModel());
  });
});

describe('a full build shared with the worker', () => {
  // 1,100 pages: with the default sample (every page) the threads take halves; with a
  // sample of 200 the worker analyses the sample first and trains while this thread reads on.
  it.each([
    ['halves', {}, 'halves'],
    ['sample first', { lsa: { maxTrainingPages: 200 } }, 'sample-first'],
  ] as const)('%s: persists the index a one-thread build persists (all but the times it read each page)', async (_name, tuning, kind) => {
    expect(planBuild(1100, withTuning(tuning).lsa.maxTrainingPages ?? DEFAULT_LSA_OPTIONS.maxTrainingPages).kind).toBe(kind);
    const ws = await workspaceWith({});
    const wiki = syntheticWiki(1100);
    await writeSyntheticWiki(ws.root, wiki);
    const config = configWith();
    const options = { env: {}, rescanAfterMs: Infinity, tuning };

    const { openSearchIndex: openCompiled } = await compiledIndex();
    const shared = await openCompiled(ws.root, ws.schema, config, options);
    const sharedResults = await Promise.all(wiki.queries.slice(0, 15).map((q) => shared.search(q)));
    await shared.close();
    const sharedSections = await sectionsOf(ws.root);

    await rm(searchDirectory(ws.root), { recursive: true });
    const alone = await openSearchIndex(ws.root, ws.schema, config, options);
    const aloneResults = await Promise.all(wiki.queries.slice(0, 15).map((q) => alone.search(q)));
    await alone.close();
    const aloneSections = await sectionsOf(ws.root);

    expect(alone.info().pages).toBe(1100);
    expect(Object.keys(sharedSections)).toEqual(Object.keys(aloneSections));
    for (const [name, bytes] of Object.entries(aloneSections)) {
      if (name === 'docs.numbers') continue; // mtime, size and when each page was read
      expect(Buffer.from(sharedSections[name] ?? []).equals(Buffer.from(bytes)), name).toBe(true);
    }
    expect(sharedResults).toEqual(aloneResults);
  });
});
