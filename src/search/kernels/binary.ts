/**
 * Byte-level helpers for the persisted index: typed-array views over sections and a
 * growable Uint32 buffer for building postings without per-entry objects.
 */
export class CorruptIndexError extends Error {}

export function asUint32(bytes: Uint8Array): Uint32Array {
  if (bytes.byteLength % 4 !== 0) throw new CorruptIndexError('section length is not a multiple of 4');
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

export function asFloat32(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % 4 !== 0) throw new CorruptIndexError('section length is not a multiple of 4');
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

export function asFloat64(bytes: Uint8Array): Float64Array {
  if (bytes.byteLength % 8 !== 0) throw new CorruptIndexError('section length is not a multiple of 8');
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
}

export function bytesOf(array: Uint32Array | Float32Array | Float64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

/** UTF-8 of `text` written into `target`, which must be exactly its size (see utf8Length). */
export function encodeTextInto(text: string, target: Uint8Array): void {
  const { read, written } = encoder.encodeInto(text, target);
  if (read !== text.length || written !== target.length) throw new Error('encodeTextInto: target is not the text\'s UTF-8 size');
}

/** Bytes of `text` in UTF-8 (a lone surrogate counts as the three bytes of U+FFFD, as TextEncoder writes it). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function decodeText(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new CorruptIndexError('section is not valid UTF-8');
  }
}

export function encodeJson(value: unknown): Uint8Array {
  return encodeText(JSON.stringify(value));
}

export function decodeJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeText(bytes)) as unknown;
  } catch (error) {
    if (error instanceof CorruptIndexError) throw error;
    throw new CorruptIndexError('section is not valid JSON');
  }
}

/** Terms never contain a newline (the analyzers emit letter and digit runs only). */
/**
 * A term list as `TermList.decode` reads it: a count, whether every term is ASCII, each
 * term's start in the text (and one past the text's end), then the terms one per line.
 * The starts are stored so that a load does not scan the text for them.
 */
export function encodeTerms(terms: readonly string[]): Uint8Array {
  const joined = terms.join('\n');
  const text = encodeText(joined);
  const header = new Uint32Array(2 + terms.length + 1);
  header[0] = terms.length;
  // As many UTF-8 bytes as UTF-16 units only when every character is ASCII.
  header[1] = text.length === joined.length ? 1 : 0;
  for (let i = 0, start = 0; i < terms.length; i++) {
    header[2 + i] = start;
    start += utf8Length(terms[i]!) + 1;
  }
  header[2 + terms.length] = text.length + 1;
  const out = new Uint8Array(header.byteLength + text.length);
  out.set(new Uint8Array(header.buffer), 0);
  out.set(text, header.byteLength);
  return out;
}

/** A Uint32 array that grows as values are pushed. */
export class Uint32Builder {
  private data: Uint32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint32Array(Math.max(16, capacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }
  private grow(needed: number): void {
    let capacity = this.data.length * 2;
    while (capacity < needed) capacity *= 2;
    const next = new Uint32Array(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  finish(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}
