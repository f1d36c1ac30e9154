/**
 * Postings grouped by term in flat typed arrays (a counting sort), for the bulk builds of
 * the lanes: one growing JavaScript array per term would make every posting a heap slot
 * that the young-generation collector copies, which at 10k pages costs more than the
 * grouping itself.
 */
export interface Grouped {
  /** Group g holds rows `starts[g] … starts[g + 1]` of the value columns. */
  starts: Uint32Array;
  /** The rows' values reordered by group; within a group, in the order they were added. */
  first: Int32Array;
  second: Int32Array;
}

/** Rows appended one at a time (at most `capacity`): a group key and one or two values. */
export class GroupingBuffer {
  private readonly keys: Int32Array;
  private readonly first: Int32Array;
  private readonly second: Int32Array;
  private readonly perKey: Uint32Array;
  length = 0;

  constructor(
    capacity: number,
    private readonly keyCount: number,
    withSecond: boolean,
  ) {
    this.keys = new Int32Array(capacity);
    this.first = new Int32Array(capacity);
    this.second = new Int32Array(withSecond ? capacity : 0);
    this.perKey = new Uint32Array(keyCount);
  }

  push(key: number, first: number, second = 0): void {
    const row = this.length++;
    this.keys[row] = key;
    this.first[row] = first;
    if (this.second.length > 0) this.second[row] = second;
    this.perKey[key]!++;
  }

  /** Whether any row has `key`. */
  has(key: number): boolean {
    return this.perKey[key]! > 0;
  }

  group(): Grouped {
    const { keyCount, keys, perKey } = this;
    const starts = new Uint32Array(keyCount + 1);
    for (let key = 0; key < keyCount; key++) starts[key + 1] = starts[key]! + perKey[key]!;
    const next = starts.slice(0, keyCount);
    const first = new Int32Array(this.length);
    const second = new Int32Array(this.second.length > 0 ? this.length : 0);
    for (let row = 0; row < this.length; row++) {
      const at = next[keys[row]!]!++;
      first[at] = this.first[row]!;
      if (second.length > 0) second[at] = this.second[row]!;
    }
    return { starts, first, second };
  }
}
