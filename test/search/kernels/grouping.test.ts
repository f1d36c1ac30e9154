import { describe, expect, it } from 'vitest';
import { GroupingBuffer } from '../../../src/search/kernels/grouping.js';

/** Rows of each group, read back from the grouped columns. */
function groups(buffer: GroupingBuffer, keyCount: number): Array<Array<[number, number]>> {
  const { starts, first, second } = buffer.group();
  return Array.from({ length: keyCount }, (_, key) => {
    const rows: Array<[number, number]> = [];
    for (let at = starts[key]!; at < starts[key + 1]!; at++) rows.push([first[at]!, second[at] ?? -1]);
    return rows;
  });
}

type Row = [key: number, first: number, second: number];
type Case = [label: string, keyCount: number, rows: Row[], expected: Array<Array<[number, number]>>];

describe('GroupingBuffer: rows grouped by key, in the order they were added', () => {
  it.each<Case>([
    ['no rows', 3, [], [[], [], []]],
    ['one key', 1, [[0, 5, 1], [0, 2, 7]], [[[5, 1], [2, 7]]]],
    [
      'keys interleaved, some empty',
      4,
      [[2, 10, 1], [0, 11, 2], [2, 12, 3], [3, 13, 4], [0, 14, 5]],
      [[[11, 2], [14, 5]], [], [[10, 1], [12, 3]], [[13, 4]]],
    ],
  ])('%s', (_label, keyCount, rows, expected) => {
    const buffer = new GroupingBuffer(rows.length, keyCount, true);
    for (const [key, first, second] of rows) buffer.push(key, first, second);
    expect(buffer.length).toBe(rows.length);
    expect(groups(buffer, keyCount)).toEqual(expected);
    for (let key = 0; key < keyCount; key++) expect(buffer.has(key)).toBe((expected[key] ?? []).length > 0);
  });

  it('keeps one column when asked for one', () => {
    const buffer = new GroupingBuffer(3, 2, false);
    buffer.push(1, 4);
    buffer.push(0, 5);
    buffer.push(1, 6);
    const { starts, first, second } = buffer.group();
    expect([...starts]).toEqual([0, 1, 3]);
    expect([...first]).toEqual([5, 4, 6]);
    expect(second.length).toBe(0);
  });

  it('matches a sort by key that keeps the order of equal keys, on random rows', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const rows = Array.from({ length: 500 }, (_, i) => [random(40), i, random(1000)] as const);
    const buffer = new GroupingBuffer(rows.length, 40, true);
    for (const [key, first, second] of rows) buffer.push(key, first, second);
    const expected = [...rows].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const { first, second } = buffer.group();
    expect([...first]).toEqual(expected.map((row) => row[1]));
    expect([...second]).toEqual(expected.map((row) => row[2]));
  });
});
