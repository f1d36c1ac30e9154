import { describe, expect, it } from 'vitest';
import { CorruptIndexError, asUint32 } from '../../../src/search/kernels/binary.js';
import { INDEX_FORMAT_VERSION, StaleIndexError, decodeSnapshot, encodeSnapshot } from '../../../src/search/live/store.js';

describe('snapshot container', () => {
  const sections = { a: new Uint8Array([1, 2, 3]), 'b.c': new Uint8Array(new Uint32Array([7, 8]).buffer), empty: new Uint8Array() };

  it('round-trips metadata and sections', () => {
    const decoded = decodeSnapshot(encodeSnapshot({ hello: 'world' }, sections));
    expect(decoded.meta).toEqual({ hello: 'world' });
    expect(Array.from(decoded.sections.a ?? [])).toEqual([1, 2, 3]);
    expect(Array.from(asUint32(decoded.sections['b.c'] ?? new Uint8Array()))).toEqual([7, 8]);
    expect(decoded.sections.empty?.length).toBe(0);
  });

  const damage: Array<[string, (bytes: Buffer) => Buffer]> = [
    ['truncated', (b) => b.subarray(0, b.length - 3)],
    ['a flipped payload byte', (b) => {
      const copy = Buffer.from(b);
      copy[copy.length - 9] = (copy[copy.length - 9] ?? 0) ^ 0xff;
      return copy;
    }],
    ['not an index at all', () => Buffer.from('hello, this is not an index')],
    ['empty', () => Buffer.alloc(0)],
  ];
  it.each(damage)('rejects a file that is %s', (_name, spoil) => {
    expect(() => decodeSnapshot(spoil(encodeSnapshot({}, sections)))).toThrow(CorruptIndexError);
  });

  it('reports another format version as stale', () => {
    const bytes = encodeSnapshot({}, sections);
    bytes.writeUInt32LE(INDEX_FORMAT_VERSION + 1, 8);
    expect(() => decodeSnapshot(bytes)).toThrow(StaleIndexError);
  });
});
