import { describe, expect, it } from 'vitest';
import { TokenLane } from '../../../../src/search/lanes/token/token-lane.js';
import { seededRandom } from '../../../../src/search/kernels/linalg.js';
import { Vocabulary } from '../../../../src/search/text/vocabulary.js';

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

describe('TokenLane.search selection', () => {
  /** The specification: every live slot's summed idf, all sorted (score, key, then the order first met). */
  function bySorting(postings: Array<[string, number[]]>, query: string[], pool: number, live: (slot: number) => boolean, liveCount: number, key: (slot: number) => string) {
    const scores = new Map<number, number>();
    for (const term of new Set(query)) {
      const slots = postings.filter(([t]) => t === term).flatMap(([, s]) => s);
      if (slots.length === 0) continue;
      const df = Math.min(slots.length, Math.max(1, liveCount));
      const idf = Math.log(1 + (liveCount - df + 0.5) / (df + 0.5));
      for (const slot of slots) if (live(slot)) scores.set(slot, (scores.get(slot) ?? 0) + idf);
    }
    const hits = [...scores].map(([slot, score]) => ({ slot, score }));
    return hits.sort((a, b) => b.score - a.score || (key(a.slot) < key(b.slot) ? -1 : key(a.slot) > key(b.slot) ? 1 : 0)).slice(0, pool);
  }

  it('keeps the same pool, in the same order, as scoring and sorting every page', () => {
    const random = seededRandom(11);
    const terms = ['t0', 't1', 't2', 't3', 't4', 't5'];
    const vocabulary = new Vocabulary();
    const bulkPages = Array.from({ length: 300 }, (_, slot) => ({ slot, terms: terms.filter(() => random() < 0.3).map((t) => vocabulary.id(t)) }));
    const lane = TokenLane.empty();
    lane.addAll(bulkPages, vocabulary);
    const postings: Array<[string, number[]]> = terms.map((t) => [t, bulkPages.filter((p) => p.terms.includes(vocabulary.id(t))).map((p) => p.slot)]);
    // Pages added since the bulk build (their slots met after the persisted ones), one of them a new term.
    for (let slot = 300; slot < 340; slot++) {
      const added = [...terms.filter(() => random() < 0.3), ...(slot % 5 === 0 ? ['t9'] : [])];
      lane.add(slot, added);
      for (const t of added) postings.push([t, [slot]]);
    }
    const live = (slot: number): boolean => slot % 13 !== 0;
    // Few keys, so many equal scores also share a key: those keep the order first met.
    const key = (slot: number): string => `k${slot % 17}`;
    for (const query of [['t0'], ['t1', 't2'], ['t3', 't3', 't9'], terms, ['t9', 'absent']]) {
      for (const pool of [1, 10, 60, 1000]) {
        expect(lane.search(query, pool, live, 320, key)).toEqual(bySorting(postings, query, pool, live, 320, key));
      }
    }
  });
});
