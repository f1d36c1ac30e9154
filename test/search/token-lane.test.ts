import { describe, expect, it } from 'vitest';
import { TokenLane } from '../../src/search/token-lane.js';
import { Vocabulary } from '../../src/search/vocabulary.js';

const keys = ['alpha', 'bravo', 'charlie', 'delta'];
const keyOf = (slot: number): string => keys[slot] ?? `slot-${slot}`;

describe('TokenLane', () => {
  it('scores by the rarity of the distinct query terms a page holds', () => {
    const lane = TokenLane.empty();
    lane.add(0, ['gpt-4o', 'gpt', 'model']);
    lane.add(1, ['model', 'weights']);
    lane.add(2, ['model']);
    const hits = lane.search(['gpt-4o', 'model', 'model'], 10, () => true, 3, keyOf);
    expect(hits.map((h) => h.slot)).toEqual([0, 1, 2]);
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 0);
    expect(hits[1]?.score).toBe(hits[2]?.score);
  });

  it('skips removed slots, and compaction renumbers without losing anything', () => {
    const lane = TokenLane.empty();
    lane.add(0, ['wing']);
    lane.add(1, ['wing', 'flutter']);
    lane.add(2, ['flutter']);
    const live = (slot: number): boolean => slot !== 1;
    expect(lane.search(['flutter'], 10, live, 2, keyOf).map((h) => h.slot)).toEqual([2]);
    const remap = Int32Array.from([0, -1, 1]);
    lane.compact(remap);
    expect(lane.search(['flutter'], 10, () => true, 2, keyOf).map((h) => h.slot)).toEqual([1]);
    expect(lane.search(['wing'], 10, () => true, 2, keyOf).map((h) => h.slot)).toEqual([0]);
    lane.add(2, ['wing']);
    expect(lane.search(['wing'], 10, () => true, 3, keyOf).map((h) => h.slot)).toEqual([0, 2]);
  });

  it('keeps only the pool, breaking ties by key', () => {
    const lane = TokenLane.empty();
    for (const slot of [3, 2, 1, 0]) lane.add(slot, ['same']);
    expect(lane.search(['same'], 2, () => true, 4, keyOf).map((h) => h.slot)).toEqual([0, 1]);
  });
});

describe('TokenLane.addAll (bulk)', () => {
  const pages = [['gpt-4o', 'gpt', 'model', 'gpt'], ['model', 'weights'], ['model'], []];
  const queries = [['gpt'], ['model', 'weights'], ['absent'], ['gpt-4o', 'model']];

  it('finds what page-by-page adds find, empty or not, and keeps it through a save', () => {
    const vocabulary = new Vocabulary();
    const asIds = pages.map((terms, slot) => ({ slot, terms: terms.map((term) => vocabulary.id(term)) }));
    const one = TokenLane.empty();
    pages.forEach((terms, slot) => one.add(slot, terms));
    const bulk = TokenLane.empty();
    bulk.addAll(asIds, vocabulary);
    const mixed = TokenLane.empty();
    mixed.add(0, pages[0] ?? []);
    mixed.addAll(asIds.slice(1), vocabulary);
    const identity = Int32Array.from({ length: pages.length }, (_, i) => i);
    const saved = TokenLane.decode(bulk.encode(identity));
    for (const query of queries) {
      const expected = one.search(query, 10, () => true, pages.length, keyOf);
      for (const lane of [bulk, mixed, saved]) expect(lane.search(query, 10, () => true, pages.length, keyOf)).toEqual(expected);
    }
  });
});
