import { evenSampleIndices } from '../lanes/semantic/lsa-train.js';

/**
 * Who reads and analyses which pages in a full build shared with a worker thread (see
 * shared-build.ts). Training the built-in embedder cannot start before the pages it
 * samples are analysed, and takes nearly as long as analysing three times as many pages.
 * When the sample is a small part of the wiki, the worker analyses the sample first
 * (then, where it has time to spare, extra pages) and trains, while this thread analyses the rest and
 * builds the lexical and token lanes ("sample first"). Otherwise each thread analyses
 * about half, and the worker trains while this thread builds the lanes ("halves").
 */
export interface BuildPlan {
  kind: 'halves' | 'sample-first';
  /** Page indices this thread analyses, ascending. */
  mine: number[];
  /** The worker's batches in the order it takes them, each ascending. */
  batches: number[][];
  /** Sample-first: the first batch is the training sample, to train on after the batches. */
  trainOnFirstBatch: boolean;
}

/**
 * Costs in units of analysing one page on this thread, fitted to phase timings of shared
 * builds of a 10k-page synthetic wiki: training, per sampled page (with the worker's
 * start-up and its slower analysis, which packs pages for the transfer, folded in), and
 * merging the worker's pages and building the lexical and token lanes, per page.
 */
export const TRAINING_COST_IN_PAGES = 2.7;
export const LANES_COST_IN_PAGES = 0.24;
/** In halves, the worker takes a little less: it starts later (its own thread and modules). */
export const WORKER_SHARE = 0.45;

/**
 * The plan for `pages` pages; `trainingSampleLimit` is the built-in embedder's sample
 * limit when it will be trained on the worker (undefined: no training there).
 */
export function planBuild(pages: number, trainingSampleLimit: number | undefined): BuildPlan {
  const split = Math.ceil(pages * (1 - WORKER_SHARE));
  const halves: BuildPlan = { kind: 'halves', mine: range(0, split), batches: [range(split, pages)], trainOnFirstBatch: false };
  if (trainingSampleLimit === undefined) return halves;
  const sample = evenSampleIndices(pages, trainingSampleLimit);
  const training = TRAINING_COST_IN_PAGES * sample.length;
  const lanes = LANES_COST_IN_PAGES * pages;
  // Extra pages for the worker, so that it finishes training when this thread has
  // analysed the rest and built the lanes.
  const extra = Math.max(0, Math.min(pages - sample.length, Math.round((pages - 2 * sample.length + lanes - training) / 2)));
  const sampleFirstCost = Math.max(sample.length + extra + training, pages - sample.length - extra + lanes);
  const halvesCost = split + Math.max(training, lanes);
  if (sampleFirstCost >= halvesCost) return halves;
  const inSample = new Uint8Array(pages);
  for (const i of sample) inSample[i] = 1;
  const rest = range(0, pages).filter((i) => !inSample[i]);
  const mine = rest.slice(0, rest.length - extra);
  const batches = extra > 0 ? [sample, rest.slice(rest.length - extra)] : [sample];
  return { kind: 'sample-first', mine, batches, trainOnFirstBatch: true };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
