import { describe, expect, it } from 'vitest';
import { VarintReader, VarintWriter } from '../../../src/search/kernels/varint.js';

describe('varints', () => {
  it('round-trips numbers and signed gaps of every size', () => {
    const values = [0, 1, 127, 128, 255, 300, 16_383, 16_384, 2 ** 21, 2 ** 28 - 1, 2 ** 31, 2 ** 32 - 1];
    const gaps = [0, 1, -1, 2, -2, 63, -64, 64, -65, 1_000_000, -1_000_000, 2 ** 30 - 1, -(2 ** 30)];
    const writer = new VarintWriter(16);
    for (const value of values) writer.push(value);
    for (const gap of gaps) writer.pushGap(gap);
    const bytes = writer.finish();
    expect(bytes.length).toBeLessThan(4 * (values.length + gaps.length));
    const reader = new VarintReader(bytes, 0);
    expect(values.map(() => reader.next())).toEqual(values);
    expect(gaps.map(() => reader.nextGap())).toEqual(gaps);
    expect(reader.position).toBe(bytes.length);
  });

  it('writes a number below 128 as one byte, and copies encoded bytes as they are', () => {
    const first = new VarintWriter();
    first.push(5);
    first.push(300);
    const encoded = first.finish();
    expect(Array.from(encoded)).toEqual([5, 0xac, 0x02]);
    const second = new VarintWriter();
    second.pushBytes(encoded, 1, 3);
    expect(new VarintReader(second.finish(), 0).next()).toBe(300);
  });
});
