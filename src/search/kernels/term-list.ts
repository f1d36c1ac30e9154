import { CorruptIndexError, asUint32, decodeText, encodeTerms } from './binary.js';

/**
 * A sorted list of terms, binary-searched. Loaded from an index file it keeps the terms
 * as the file has them (UTF-8, one per line) and spells out only the terms a lookup
 * touches: the lexical, token and semantic lanes hold 80k terms at 10k pages, and a
 * search needs a handful of them.
 */
export class TermList {
  private constructor(
    /** The section as `encodeTerms` wrote it (written back unchanged). */
    private readonly section: Uint8Array | undefined,
    /** The terms' text, one per line. */
    private readonly bytes: Uint8Array | undefined,
    /** Start of term i in `bytes`; term i ends one byte (the newline) before term i + 1 starts. */
    private readonly starts: Uint32Array | undefined,
    private spelled: string[] | undefined,
    private readonly ascii: boolean,
  ) {}

  static of(terms: readonly string[]): TermList {
    return new TermList(undefined, undefined, undefined, [...terms], false);
  }

  /** The list encoded by `encodeTerms` (its starts are read, not found by scanning the text). */
  static decode(section: Uint8Array): TermList {
    if (section.length < 12) throw new CorruptIndexError('term list is truncated');
    const head = asUint32(section.subarray(0, 8));
    const count = head[0]!;
    const startsEnd = 8 + 4 * (count + 1);
    if (startsEnd > section.length) throw new CorruptIndexError('term list is truncated');
    const starts = asUint32(section.subarray(8, startsEnd));
    const text = section.subarray(startsEnd);
    if (starts[count] !== text.length + 1 || (count > 0 && starts[0] !== 0)) throw new CorruptIndexError('term list starts do not match its text');
    for (let i = 0; i < count; i++) if (starts[i + 1]! <= starts[i]!) throw new CorruptIndexError('term list starts are not ordered');
    const ascii = head[1] === 1;
    // Check the text once (it is spelled out piecemeal later).
    if (!ascii) decodeText(text);
    return new TermList(section, text, starts, undefined, ascii);
  }

  get length(): number {
    return this.spelled ? this.spelled.length : (this.starts?.length ?? 1) - 1;
  }

  at(index: number): string {
    if (this.spelled) return this.spelled[index] ?? '';
    const { bytes, starts } = this;
    if (!bytes || !starts || index < 0 || index >= starts.length - 1) return '';
    const start = starts[index]!;
    const end = starts[index + 1]! - 1;
    if (this.ascii) return latin1(bytes, start, end);
    return decodeText(bytes.subarray(start, end));
  }

  /** Index of `term`, or -1. */
  indexOf(term: string): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.compareAt(mid, term);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Term `index` compared with `term` (negative: it sorts first). ASCII lists compare in place. */
  private compareAt(index: number, term: string): number {
    const { bytes, starts } = this;
    if (this.spelled || !this.ascii || !bytes || !starts) {
      const probe = this.at(index);
      return probe < term ? -1 : probe > term ? 1 : 0;
    }
    // An ASCII byte sorts as the UTF-16 code unit of the same value, and before any
    // non-ASCII unit, so comparing bytes with code units gives the string order.
    const start = starts[index]!;
    const length = starts[index + 1]! - 1 - start;
    const common = Math.min(length, term.length);
    for (let i = 0; i < common; i++) {
      const difference = bytes[start + i]! - term.charCodeAt(i);
      if (difference !== 0) return difference;
    }
    return length - term.length;
  }

  /** Every term (spelled out once, then kept). */
  all(): readonly string[] {
    if (!this.spelled) {
      const terms = new Array<string>(this.length);
      for (let i = 0; i < terms.length; i++) terms[i] = this.at(i);
      this.spelled = terms;
    }
    return this.spelled;
  }

  encode(): Uint8Array {
    return this.section && !this.spelled ? this.section : encodeTerms(this.all());
  }
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}
