import { describe, expect, it } from 'vitest';
import { smoothOverNeighbours, type SmoothingParams } from '../../../src/search/fusion/neighbour-smoothing.js';
import type { FusedSlot } from '../../../src/search/fusion/score-fusion.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';

// Score regularisation over the page similarity graph: the best fused pages gain from their
// most similar neighbours among them, lane by lane, never losing, never passing a page on
// that was not smoothed from below, and the same at any limit.

const unit = (values: number[]): Float32Array => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
};

/** A fused hit with a lexical and a semantic contribution summing to its score. */
const hit = (slot: number, lexical: number, semantic: number): FusedSlot => ({
  slot,
  score: lexical + semantic,
  lanes: { lexical: slot + 1, semantic: slot + 1 },
  contributions: { lexical, semantic },
});

const PARAMS: SmoothingParams = { pages: 30, neighbours: 3, weight: 0.4 };
const key = (slot: number): string => `page-${String(slot).padStart(3, '0')}`;

describe('smoothOverNeighbours', () => {
  it('lifts a page like the best one above a page like none, by weight × its neighbours’ weighted mean', () => {
    // Slots 0 and 2 point the same way; slot 1 is orthogonal to both.
    const vectors = [unit([1, 0]), unit([0, 1]), unit([1, 0])];
    const hits = [hit(0, 1, 0.5), hit(1, 0.6, 0.3), hit(2, 0.5, 0.3)];
    const out = smoothOverNeighbours(hits, { ...PARAMS, neighbours: 1 }, (slot) => vectors[slot], key);
    expect(out.map((h) => h.slot)).toEqual([0, 2, 1]);
    const bySlot = new Map(out.map((h) => [h.slot, h]));
    // Slot 2's one neighbour is slot 0 (cosine 1): it gains 0.4 × slot 0's contributions.
    expect(bySlot.get(2)!.contributions.lexical).toBeCloseTo(0.5 + 0.4 * 1, 12);
    expect(bySlot.get(2)!.contributions.semantic).toBeCloseTo(0.3 + 0.4 * 0.5, 12);
    // Slot 1 has no neighbour with a positive cosine: unchanged.
    expect(bySlot.get(1)).toEqual(hits[1]);
  });

  it('keeps each page’s contributions summing to its score, never lowers a score, and leaves pages past `pages` as they were, below', () => {
    const random = seededRandom(5);
    const vectors = Array.from({ length: 60 }, () => unit([random() - 0.3, random() - 0.3, random() - 0.3, random()]));
    const scores = Array.from({ length: 60 }, () => random()).sort((a, b) => b - a);
    const hits = scores.map((score, slot) => hit(slot, score * 0.6, score * 0.4));
    const out = smoothOverNeighbours(hits, { ...PARAMS, pages: 20 }, (slot) => vectors[slot], key);
    expect(out).toHaveLength(60);
    expect(new Set(out.slice(0, 20).map((h) => h.slot))).toEqual(new Set(hits.slice(0, 20).map((h) => h.slot)));
    expect(out.slice(20)).toEqual(hits.slice(20));
    for (const page of out) {
      const sum = (page.contributions.lexical ?? 0) + (page.contributions.semantic ?? 0);
      expect(sum).toBeCloseTo(page.score, 12);
      expect(page.score).toBeGreaterThanOrEqual(hits[page.slot]!.score);
    }
    for (let i = 1; i < out.length; i++) expect(out[i - 1]!.score).toBeGreaterThanOrEqual(out[i]!.score);
  });

  it('gives the same pages the same scores whatever the limit (the caller slices after smoothing)', () => {
    const random = seededRandom(9);
    const vectors = Array.from({ length: 80 }, () => unit([random(), random(), random() - 0.5]));
    const hits = Array.from({ length: 80 }, (_, slot) => hit(slot, 1 - slot / 100, 0.5 - slot / 400));
    const full = smoothOverNeighbours(hits, PARAMS, (slot) => vectors[slot], key);
    for (const limit of [5, 10, 30, 50]) {
      const asked = smoothOverNeighbours(hits.slice(0, Math.max(limit, PARAMS.pages)), PARAMS, (slot) => vectors[slot], key).slice(0, limit);
      expect(asked).toEqual(full.slice(0, limit));
    }
  });

  it.each([
    ['weight 0', { ...PARAMS, weight: 0 }],
    ['no neighbours', { ...PARAMS, neighbours: 0 }],
    ['one page', { ...PARAMS, pages: 1 }],
  ])('changes nothing with %s', (_, params) => {
    const vectors = [unit([1, 0]), unit([0, 1]), unit([1, 0])];
    const hits = [hit(0, 1, 0.5), hit(1, 0.6, 0.3), hit(2, 0.5, 0.3)];
    expect(smoothOverNeighbours(hits, params, (slot) => vectors[slot], key)).toEqual(hits);
  });

  it('skips pages without a vector (not yet embedded): they neither gain nor lend', () => {
    const vectors = [unit([1, 0]), undefined, unit([1, 0])];
    const hits = [hit(0, 1, 0.5), hit(1, 0.9, 0.5), hit(2, 0.5, 0.3)];
    const out = smoothOverNeighbours(hits, PARAMS, (slot) => vectors[slot], key);
    const bySlot = new Map(out.map((h) => [h.slot, h]));
    expect(bySlot.get(1)).toEqual(hits[1]);
    expect(bySlot.get(0)!.score).toBeCloseTo(1.5 + 0.4 * 0.8, 12);
    expect(bySlot.get(2)!.score).toBeCloseTo(0.8 + 0.4 * 1.5, 12);
  });
});
