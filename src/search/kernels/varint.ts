/**
 * Posting lists as variable-length integers: 7 bits a byte, low bits first, the high bit
 * marking that more follow. Postings are mostly small numbers and small gaps between
 * ascending ids, so this keeps the index file (read whole by every fresh search) about a
 * third smaller than 32-bit words, and a list is decoded only when a query uses it.
 * Gaps are zigzag-coded, so a list that is not ascending still round-trips.
 */
export class VarintWriter {
  private data: Uint8Array;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.data = new Uint8Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length + 5 > this.data.length) this.grow(this.length + 5);
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.data[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.data[this.length++] = rest;
  }

  /** A signed difference, zigzag-coded (0, -1, 1, -2, 2 … → 0, 1, 2, 3, 4 …). */
  pushGap(gap: number): void {
    this.push((gap << 1) ^ (gap >> 31));
  }

  /** Append encoded bytes as they are. */
  pushBytes(source: Uint8Array, start: number, end: number): void {
    if (this.length + (end - start) > this.data.length) this.grow(this.length + (end - start));
    this.data.set(source.subarray(start, end), this.length);
    this.length += end - start;
  }

  finish(): Uint8Array {
    return this.data.slice(0, this.length);
  }

  private grow(needed: number): void {
    let capacity = this.data.length * 2;
    while (capacity < needed) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

/** Reads varints from `data` starting at `position`. */
export class VarintReader {
  constructor(
    private readonly data: Uint8Array,
    public position: number,
  ) {}

  next(): number {
    const data = this.data;
    // Up to four bytes (28 bits) with integer operations; a fifth, rarely, in floating point.
    let byte = data[this.position++] ?? 0;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    byte = data[this.position++] ?? 0;
    value |= (byte & 0x7f) << 7;
    if (byte < 0x80) return value;
    byte = data[this.position++] ?? 0;
    value |= (byte & 0x7f) << 14;
    if (byte < 0x80) return value;
    byte = data[this.position++] ?? 0;
    value |= (byte & 0x7f) << 21;
    if (byte < 0x80) return value;
    let scale = 2 ** 28;
    for (;;) {
      byte = data[this.position++] ?? 0;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 2 ** 7;
    }
  }

  /** A zigzag-coded difference (see pushGap). */
  nextGap(): number {
    const coded = this.next();
    return coded % 2 === 0 ? coded / 2 : -(coded + 1) / 2;
  }
}
