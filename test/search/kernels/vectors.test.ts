import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/search/kernels/linalg.js';
import { VectorStore, type VectorHit } from '../../../src/search/kernels/vectors.js';

function unitVector(random: () => number, dimensions: number): Float32Array {
  const vector = Float32Array.from({ length: dimensions }, () => random() - 0.5);
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

/** The specification of one similarity: the dot product as four running sums, added in order. */
function dot(query: Float32Array, row: Float32Array): number {
  const sums = [0, 0, 0, 0];
  const whole = row.length - (row.length % 4);
  for (let j = 0; j < whole; j++) sums[j % 4]! += query[j]! * row[j]!;
  for (let j = whole; j < row.length; j++) sums[0]! += query[j]! * row[j]!;
  return sums[0]! + sums[1]! + sums[2]! + sums[3]!;
}

/** The specification: every live row's dot product, all sorted. */
function bySorting(rows: Map<number, Float32Array>, query: Float32Array, pool: number, isLive: (slot: number) => boolean): VectorHit[] {
  const hits: VectorHit[] = [];
  for (const [slot, row] of rows) {
    const similarity = dot(query, row);
    if (similarity > 0 && isLive(slot)) hits.push({ slot, similarity });
  }
  return hits.sort((a, b) => b.similarity - a.similarity || a.slot - b.slot).slice(0, pool);
}

describe('VectorStore.nearest', () => {
  it.each([128, 12, 6])('%i dimensions equals sorting every similarity, ties by slot', (dimensions) => {
    const random = seededRandom(dimensions);
    const store = new VectorStore(dimensions, 4);
    const rows = new Map<number, Float32Array>();
    for (let slot = 0; slot < 700; slot++) {
      if (slot % 7 === 3) continue; // holes
      // Every tenth row repeats an earlier one: equal similarities, broken by slot.
      const row = (slot % 10 === 9 ? rows.get(slot - 9) : undefined) ?? unitVector(random, dimensions);
      store.set(slot, row);
      rows.set(slot, row);
    }
    for (const slot of [5, 100, 650]) {
      store.delete(slot);
      rows.delete(slot);
    }
    const isLive = (slot: number): boolean => slot % 11 !== 0;
    for (let q = 0; q < 20; q++) {
      const query = unitVector(random, dimensions);
      for (const pool of [1, 25, 1000]) expect(store.nearest(query, pool, isLive)).toEqual(bySorting(rows, query, pool, isLive));
    }
    // Slot 9 holds slot 0's vector: asked for it, the two tie and the lower slot comes first.
    const [first, second] = store.nearest(rows.get(0)!, 2, () => true);
    expect([first?.slot, second?.slot]).toEqual([0, 9]);
    expect(first?.similarity).toBe(second?.similarity);
  });

  it('keeps its vectors as it grows, through a save and load and through compaction', () => {
    const random = seededRandom(3);
    const store = new VectorStore(128, 1);
    const rows = new Map<number, Float32Array>();
    for (let slot = 0; slot < 3000; slot += 3) {
      const row = unitVector(random, 128);
      store.set(slot, row);
      rows.set(slot, row);
    }
    const query = unitVector(random, 128);
    const all = (): boolean => true;
    const expected = bySorting(rows, query, 40, all);
    expect(store.nearest(query, 40, all)).toEqual(expected);
    const slotCount = 3000;
    const identity = Int32Array.from({ length: slotCount }, (_, i) => i);
    expect(VectorStore.decode(store.encode(identity, slotCount), 128, slotCount).nearest(query, 40, all)).toEqual(expected);
    const remap = Int32Array.from({ length: slotCount }, (_, i) => (i % 3 === 0 ? i / 3 : -1));
    store.compact(remap, slotCount / 3);
    expect(store.nearest(query, 40, all)).toEqual(expected.map((hit) => ({ slot: hit.slot / 3, similarity: hit.similarity })));
    store.set(5000, rows.get(0)!);
    expect(store.nearest(rows.get(0)!, 2, all).map((hit) => hit.slot)).toEqual([0, 5000]);
  });
});

describe('VectorStore.similarities', () => {
  // Rows are scanned two at a time: odd and even row counts, holes at either row of a pair
  // and dimensions with and without a remainder past the last four must give each row
  // exactly the number the one-row specification gives.
  it.each([
    [128, 701],
    [128, 700],
    [13, 64],
    [6, 33],
    [3, 10],
  ])('%i dimensions, %i slots: every slot holds exactly its row\'s dot product (0 for a hole)', (dimensions, slots) => {
    const random = seededRandom(dimensions * 1000 + slots);
    const store = new VectorStore(dimensions, 1);
    const rows = new Map<number, Float32Array>();
    for (let slot = 0; slot < slots; slot++) {
      if (slot % 5 === 2 || slot % 9 === 7) continue;
      const row = unitVector(random, dimensions);
      store.set(slot, row);
      rows.set(slot, row);
    }
    store.delete(0);
    rows.delete(0);
    for (let q = 0; q < 10; q++) {
      const query = unitVector(random, dimensions);
      const found = store.similarities(query);
      // The store's capacity may end before trailing holes.
      expect(found.length).toBeGreaterThan(Math.max(...rows.keys()));
      for (let slot = 0; slot < Math.max(slots, found.length); slot++) {
        const row = rows.get(slot);
        expect(found[slot] ?? 0).toBe(row ? dot(query, row) : 0);
      }
    }
  });
});
