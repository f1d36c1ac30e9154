import { CorruptIndexError, asFloat32, bytesOf } from './binary.js';

/**
 * Unit vectors by slot, searched by brute-force cosine (a dot product of unit vectors).
 * A flat Float32Array keeps 10k × 128 dimensions in 5 MB, and a scan of all of them
 * takes about a millisecond, which beats any approximate index at wiki sizes.
 */
export interface VectorHit {
  slot: number;
  similarity: number;
}

export class VectorStore {
  /** Rows by slot. */
  private data: Float32Array;
  private present: Uint8Array;

  constructor(
    readonly dimensions: number,
    capacity = 64,
  ) {
    const slots = Math.max(1, capacity);
    this.data = new Float32Array(slots * dimensions);
    this.present = new Uint8Array(slots);
  }

  private ensure(slot: number): void {
    if (slot < this.present.length) return;
    let capacity = Math.max(1, this.present.length);
    while (capacity <= slot) capacity *= 2;
    const data = new Float32Array(capacity * this.dimensions);
    data.set(this.data);
    this.data = data;
    const present = new Uint8Array(capacity);
    present.set(this.present);
    this.present = present;
  }

  set(slot: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions) throw new Error(`vector has ${vector.length} dimensions, expected ${this.dimensions}`);
    this.ensure(slot);
    this.data.set(vector, slot * this.dimensions);
    this.present[slot] = 1;
  }

  has(slot: number): boolean {
    return this.present[slot] === 1;
  }

  /** The slot's vector (a view, not a copy), or undefined when it has none. */
  vector(slot: number): Float32Array | undefined {
    if (this.present[slot] !== 1) return undefined;
    return this.data.subarray(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  delete(slot: number): void {
    if (slot < this.present.length) this.present[slot] = 0;
  }

  /**
   * Every vector's similarity to the query, by slot (0 where a slot has none). A removed
   * page's vector is deleted with it (SemanticLane.remove), so every vector is a live page's.
   */
  similarities(query: Float32Array): Float64Array {
    return this.dots(query);
  }

  /** The `pool` most similar live vectors with positive similarity, most similar first (ties: lower slot). */
  nearest(query: Float32Array, pool: number, isLive: (slot: number) => boolean): VectorHit[] {
    const present = this.present;
    const dots = this.dots(query);
    const hits: VectorHit[] = [];
    // A page at right angles to the query (or opposite) shares no meaning with it.
    let floor = 0;
    for (let slot = 0; slot < present.length; slot++) {
      if (present[slot] !== 1) continue;
      const dot = dots[slot]!;
      if (dot <= floor || !isLive(slot)) continue;
      insertSorted(hits, { slot, similarity: dot }, pool);
      if (hits.length >= pool) floor = hits[hits.length - 1]!.similarity;
    }
    return hits;
  }

  /**
   * Every row's dot product with the query, as four running sums (elements 0, 4, 8 … in
   * the first, 1, 5, 9 … in the second and so on) added up in order at the end: four
   * independent chains let the CPU overlap the multiply-adds. Two rows are summed side by
   * side (eight chains, each query element read once for both), over a float64 copy of
   * the query (a float32 element read is a conversion each time); each row's sums are the
   * same operations in the same order as `rowDot`, so the same numbers.
   *
   * The work of a pair of rows is a small function of its own, and this loop leaves no
   * statement after it: in a fresh process V8 optimises a small function called 5,000
   * times sooner than it compiles this loop on the stack, and keeps it for the next scan,
   * where a loop compiled on the stack that meets code it never ran is thrown away
   * (docs/search-eval.md, "The first query of a fresh search").
   */
  private dots(query: Float32Array): Float64Array {
    const k = this.dimensions;
    const data = this.data;
    const present = this.present;
    const rows = present.length;
    const dots = new Float64Array(rows);
    const q = Float64Array.from(query);
    const paired = rows - (rows % 2);
    if (paired < rows && present[paired] === 1) dots[paired] = rowDot(q, data, paired * k, k);
    for (let slot = 0; slot < paired; slot += 2) {
      if (present[slot] === 1 && present[slot + 1] === 1) pairDots(q, data, slot, k, dots);
      else {
        if (present[slot] === 1) dots[slot] = rowDot(q, data, slot * k, k);
        if (present[slot + 1] === 1) dots[slot + 1] = rowDot(q, data, (slot + 1) * k, k);
      }
    }
    return dots;
  }

  /** Rows renumbered by `remap` (old slot → new slot or -1), for `slotCount` slots. */
  encode(remap: Int32Array, slotCount: number): Record<string, Uint8Array> {
    const data = new Float32Array(slotCount * this.dimensions);
    const present = new Uint8Array(slotCount);
    for (let old = 0; old < Math.min(remap.length, this.present.length); old++) {
      const next = remap[old] ?? -1;
      if (next < 0 || this.present[old] !== 1) continue;
      data.set(this.data.subarray(old * this.dimensions, (old + 1) * this.dimensions), next * this.dimensions);
      present[next] = 1;
    }
    return { vectors: bytesOf(data), present };
  }

  static decode(sections: Record<string, Uint8Array | undefined>, dimensions: number, slotCount: number): VectorStore {
    const { vectors, present } = sections;
    if (!vectors || !present) throw new CorruptIndexError('vector sections are missing');
    const data = asFloat32(vectors);
    if (present.length !== slotCount || data.length !== slotCount * dimensions) {
      throw new CorruptIndexError('vector sections disagree in size');
    }
    const store = new VectorStore(dimensions, slotCount);
    store.data = data;
    store.present = Uint8Array.from(present);
    return store;
  }

  compact(remap: Int32Array, slotCount: number): void {
    const compacted = VectorStore.decode(this.encode(remap, slotCount), this.dimensions, slotCount);
    this.data = compacted.data;
    this.present = compacted.present;
  }
}

/** Insert keeping descending similarity (ties by slot), capped at `limit`. */
function insertSorted(hits: VectorHit[], hit: VectorHit, limit: number): void {
  let i = hits.length;
  while (i > 0) {
    const prev = hits[i - 1]!;
    if (prev.similarity > hit.similarity || (prev.similarity === hit.similarity && prev.slot < hit.slot)) break;
    i--;
  }
  hits.splice(i, 0, hit);
  if (hits.length > limit) hits.pop();
}

/** Rows `slot` and `slot + 1`'s dot products with the query into `dots`, each as `rowDot` sums it, side by side. */
function pairDots(q: Float64Array, data: Float32Array, slot: number, k: number, dots: Float64Array): void {
  const tail = k - (k % 4);
  const a = slot * k;
  const b = a + k;
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let a3 = 0;
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let b3 = 0;
  let j = 0;
  for (; j < tail; j += 4) {
    const q0 = q[j]!;
    const q1 = q[j + 1]!;
    const q2 = q[j + 2]!;
    const q3 = q[j + 3]!;
    a0 += q0 * data[a + j]!;
    a1 += q1 * data[a + j + 1]!;
    a2 += q2 * data[a + j + 2]!;
    a3 += q3 * data[a + j + 3]!;
    b0 += q0 * data[b + j]!;
    b1 += q1 * data[b + j + 1]!;
    b2 += q2 * data[b + j + 2]!;
    b3 += q3 * data[b + j + 3]!;
  }
  for (; j < k; j++) {
    a0 += q[j]! * data[a + j]!;
    b0 += q[j]! * data[b + j]!;
  }
  dots[slot] = a0 + a1 + a2 + a3;
  dots[slot + 1] = b0 + b1 + b2 + b3;
}

/** One row's dot product with the query, as four running sums added up in order at the end. */
function rowDot(query: Float64Array, data: Float32Array, base: number, k: number): number {
  const tail = k - (k % 4);
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  let j = 0;
  for (; j < tail; j += 4) {
    d0 += query[j]! * data[base + j]!;
    d1 += query[j + 1]! * data[base + j + 1]!;
    d2 += query[j + 2]! * data[base + j + 2]!;
    d3 += query[j + 3]! * data[base + j + 3]!;
  }
  for (; j < k; j++) d0 += query[j]! * data[base + j]!;
  return d0 + d1 + d2 + d3;
}
