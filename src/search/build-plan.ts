import { evenSampleIndices } from './lsa-train.js';

/**
 * Who reads and analyses which pages in a full build shared with a worker thread (see
 * build-threads.ts). Training the built-in embedder cannot start before the pages it
 * samples are analysed and takes about as long as analysing three times as many pages,
 * so when the sample is a small part of the wiki the worker analyses the sample first
 * and trains on it while this thread analyses the rest ("sample first"); otherwise each
 * thread analyses about half and the worker trains afterwards ("halves").
 */
export interface BuildPlan {
  kind: 'halves' | 'sample-first';
  /** Page indices this thread analyses, ascending. */
  mine: number[];
  /** The worker's batches in the order it takes them, each ascending. */
  batches: number[][];
  /** Sample-first: the first batch is the training sample, to train on right after it. */
  trainOnFirstBatch: boolean;
}

/** Training on one sampled page costs about as much as analysing this many (measured at 10k pages). */
export const TRAINING_COST_IN_PAGES = 3;
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
  // Extra pages for the worker once it has trained, so both threads finish together.
  const extra = Math.max(0, Math.floor((pages - 2 * sample.length - training) / 2));
  const sampleFirstCost = Math.max(sample.length + training + extra, pages - sample.length - extra);
  const halvesCost = split + training;
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
