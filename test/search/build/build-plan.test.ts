import { describe, expect, it } from 'vitest';
import { LANES_COST_IN_PAGES, planBuild, TRAINING_COST_IN_PAGES, WORKER_SHARE } from '../../../src/search/build/build-plan.js';
import { evenSampleIndices } from '../../../src/search/lanes/semantic/lsa-train.js';

const LIMIT = 2500;

describe('planBuild: who analyses which pages of a full build', () => {
  it.each([
    // pages, sample limit (undefined: nothing to train on the worker), expected kind
    [1000, undefined, 'halves'],
    [50_000, undefined, 'halves'],
    [2000, LIMIT, 'halves'], // the sample is every page: nothing to gain by training first
    [4000, LIMIT, 'halves'], // training first would leave this thread idle longer than it saves
    [10_000, LIMIT, 'sample-first'],
    [50_000, LIMIT, 'sample-first'],
  ] as const)('%i pages, sample limit %s → %s', (pages, limit, kind) => {
    const plan = planBuild(pages, limit);
    expect(plan.kind).toBe(kind);
    // Every page is analysed exactly once, by one thread or the other.
    const all = [...plan.mine, ...plan.batches.flat()].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: pages }, (_, i) => i));
    for (const part of [plan.mine, ...plan.batches]) expect(part).toEqual([...part].sort((a, b) => a - b));
    expect(plan.trainOnFirstBatch).toBe(kind === 'sample-first');
  });

  it('halves: the worker takes the last pages, a little under half', () => {
    const plan = planBuild(1000, undefined);
    expect(plan.batches).toEqual([Array.from({ length: 1000 * WORKER_SHARE }, (_, i) => 550 + i)]);
  });

  it('sample first: the worker first analyses exactly the pages the embedder trains on', () => {
    const plan = planBuild(10_000, LIMIT);
    expect(plan.batches[0]).toEqual(evenSampleIndices(10_000, LIMIT));
    // Then a few hundred more, analysed before it trains, so it is done as this thread finishes the lanes.
    expect(plan.batches[1]?.length).toBeGreaterThan(0);
    expect(plan.batches[1]?.length).toBeLessThan(2000);
  });

  it('sample first on a big wiki: the worker also takes extra pages so both threads finish together', () => {
    const pages = 50_000;
    const plan = planBuild(pages, LIMIT);
    const extra = plan.batches[1] ?? [];
    const worker = LIMIT + extra.length + TRAINING_COST_IN_PAGES * LIMIT;
    const mine = plan.mine.length + LANES_COST_IN_PAGES * pages;
    expect(extra.length).toBeGreaterThan(0);
    expect(Math.abs(worker - mine)).toBeLessThanOrEqual(2);
  });
});
