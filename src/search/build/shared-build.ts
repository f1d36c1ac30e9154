import { BuildWorker, type PackedVectors } from './build-threads.js';
import { planBuild } from './build-plan.js';
import type { PageStat } from '../live/doc-record.js';
import type { PageDocument } from '../text/document.js';
import { LsaEmbedder } from '../lanes/semantic/embedder.js';
import type { SearchEngine } from '../engine.js';
import type { AnalysedForBuild, BulkBuild } from './bulk-build.js';
import { trainingSample, type LsaParts, type LsaTrainer } from '../lanes/semantic/lsa.js';
import { mergeBatch, type PageBatch } from './page-batch.js';
import type { EmbeddedAhead, PageToEmbed } from '../lanes/semantic/semantic.js';

/** A page a full build indexes: its path and stat from the scan, its text if already read. */
export interface BuildPage {
  path: string;
  stat: PageStat;
  content: string | undefined;
}

export interface SharedBuild<P extends BuildPage> {
  /** What the semantic lane still has to embed (every page, when `trained` is false). */
  work: PageToEmbed[];
  /** The built-in embedder was trained and every page embedded. */
  trained: boolean;
  /** Pages indexed (the others vanished since the scan), in page order. */
  indexed: P[];
}

/**
 * A full build shared with a worker thread (see build-plan.ts for who does what). The
 * pages keep their order (slots), and the index is the one a build on one thread makes.
 * Without a worker (one core, or running from sources) this thread does everything;
 * where the worker fails, this thread does its part. `started` is a worker already
 * starting up (see openSearchIndex); it is closed here whether used or not.
 */
export async function buildShared<P extends BuildPage>(
  bulk: BulkBuild,
  engine: SearchEngine,
  root: string,
  pages: readonly P[],
  read: (page: P) => PageDocument | undefined,
  started?: BuildWorker,
): Promise<SharedBuild<P>> {
  const lane = 'lane' in engine.semantic ? engine.semantic.lane : undefined;
  const lsa = lane && lane.embedder instanceof LsaEmbedder && lane.needsTraining(pages.length) ? lane.embedder : undefined;
  const readsEveryPage = pages.every((page) => page.content === undefined);
  if (started && !readsEveryPage) void started.close();
  const worker = readsEveryPage ? (started ?? BuildWorker.start()) : undefined;
  const plan = planBuild(pages.length, worker ? lsa?.trainingOptions.maxTrainingPages : undefined);
  const analysed: Array<AnalysedForBuild | undefined> = new Array(pages.length);
  const analyseHere = (indices: readonly number[]): void => {
    for (const i of indices) {
      const doc = read(pages[i]!);
      if (doc) analysed[i] = bulk.analyse(doc);
    }
  };
  if (!worker) {
    analyseHere(pages.map((_, i) => i));
    return finish(bulk, engine, pages, analysed, undefined);
  }
  try {
    const batches = plan.batches.map((indices, b) => {
      const batch = worker.analyse(root, indices.map((i) => pages[i]!.path), bulk.withText, engine.language, b === 0 && plan.trainOnFirstBatch);
      batch.catch(() => undefined); // awaited below; a failure is handled there
      return { indices, batch };
    });
    // Asked after the batches: the worker analyses them all before it trains.
    const kept = lsa && plan.trainOnFirstBatch ? worker.trainOnKept(lsa.trainingOptions) : undefined;
    kept?.catch(() => undefined);
    analyseHere(plan.mine);
    for (const { indices, batch } of batches) {
      const done: PageBatch | undefined = await batch.catch(() => undefined);
      if (!done) {
        analyseHere(indices);
        continue;
      }
      for (const { at, page } of mergeBatch(done, bulk.vocabulary)) analysed[indices[at]!] = bulk.merged(page);
    }
    // The sample trained on ahead is the sample of every page only if none vanished.
    const allThere = analysed.filter(Boolean).length === pages.length; // (holes are pages that vanished)
    const trainer: LsaTrainer = (corpus, options): Promise<LsaParts | undefined> =>
      kept && allThere ? kept : worker.trainLsa(trainingSample(corpus, options), options);
    // Then the worker embeds the sample while this thread embeds the rest (slots are page indices when none vanished).
    const sample = plan.batches[0];
    const ahead: EmbeddedAhead | undefined =
      kept && allThere && sample ? { slots: sample, vectors: worker.embedKept().then((packed) => unpackVectors(packed, sample.length)) } : undefined;
    ahead?.vectors.catch(() => undefined);
    return await finish(bulk, engine, pages, analysed, lsa && trainer, ahead);
  } finally {
    void worker.close();
  }
}

async function finish<P extends BuildPage>(
  bulk: BulkBuild,
  engine: SearchEngine,
  pages: readonly P[],
  analysed: ReadonlyArray<AnalysedForBuild | undefined>,
  trainer: LsaTrainer | undefined,
  ahead?: EmbeddedAhead,
): Promise<SharedBuild<P>> {
  const indexed: P[] = [];
  analysed.forEach((page, i) => {
    if (!page) return;
    bulk.add(page, pages[i]!.stat);
    indexed.push(pages[i]!);
  });
  const lane = 'lane' in engine.semantic ? engine.semantic.lane : undefined;
  // The embedder trains (on the worker) while this thread builds the other lanes.
  const training = trainer && lane?.needsTraining(engine.docs.liveCount) ? lane.train(bulk.work, trainer, ahead) : undefined;
  bulk.finishLanes();
  await training;
  return { work: bulk.work, trained: training !== undefined, indexed };
}

function unpackVectors(packed: PackedVectors, pages: number): Array<Float32Array | undefined> {
  if (packed.present.length !== pages) throw new Error('build worker: embedded a different number of pages');
  const d = packed.dimensions;
  return Array.from(packed.present, (present, p) => (present ? packed.values.subarray(p * d, (p + 1) * d) : undefined));
}
