/**
 * The `k`-th largest positive value among `values[0]` … `values[count − 1]`, or -Infinity
 * when there are fewer than `k` (score fusion's threshold: only pages at or above it are
 * sorted in full). This and `kthLargestAt` are one loop each over one kind
 * of read (not one loop with an optional index array): a first search runs each loop
 * once, and V8 threw away the shared loop's optimised code when the second kind came.
 */
export function kthLargest(values: ArrayLike<number>, count: number, k: number): number {
  if (count < k || k <= 0) return -Infinity;
  const largest = new LargestValues(k);
  let floor = 0;
  for (let n = 0; n < count; n++) if (values[n]! > floor) floor = largest.add(values[n]!);
  return largest.kth();
}

/** The `k`-th largest positive value among `values[at[0]]` … `values[at[count − 1]]`, or -Infinity when there are fewer than `k`. */
export function kthLargestAt(values: ArrayLike<number>, at: Int32Array, count: number, k: number): number {
  if (count < k || k <= 0) return -Infinity;
  const largest = new LargestValues(k);
  let floor = 0;
  for (let n = 0; n < count; n++) if (values[at[n]!]! > floor) floor = largest.add(values[at[n]!]!);
  return largest.kth();
}

/** The `k` largest values added, as a min-heap; `add` takes only a value above the floor it returns. */
class LargestValues {
  private readonly heap: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.heap = new Float64Array(k);
  }

  /** Adds `value` (above the last floor returned); returns the new floor: 0 until `k` values are in, then the smallest of them. */
  add(value: number): number {
    const { heap, k } = this;
    if (this.size < k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= value) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = value;
    } else {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= k) break;
        const child = left + 1 < k && heap[left + 1]! < heap[left]! ? left + 1 : left;
        if (heap[child]! >= value) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = value;
    }
    return this.size < k ? 0 : heap[0]!;
  }

  /** The `k`-th largest value added, or -Infinity when fewer were. */
  kth(): number {
    return this.size < this.k ? -Infinity : this.heap[0]!;
  }
}
