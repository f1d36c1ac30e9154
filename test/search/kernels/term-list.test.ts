import { describe, expect, it } from 'vitest';
import { CorruptIndexError, encodeTerms } from '../../../src/search/kernels/binary.js';
import { TermList } from '../../../src/search/kernels/term-list.js';

describe('TermList', () => {
  const cases: Array<[string, string[]]> = [
    ['ASCII', ['apple', 'band', 'c++', 'gpt-4o', 'node.js']],
    ['non-ASCII', ['cafe', 'café', 'zebra', '注意', '한국']],
    ['one term', ['only']],
    ['none', []],
  ];
  it.each(cases)('finds every term of a saved %s list, and nothing else', (_, terms) => {
    const sorted = [...terms].sort();
    for (const list of [TermList.decode(encodeTerms(sorted)), TermList.of(sorted)]) {
      expect(list.length).toBe(sorted.length);
      sorted.forEach((term, i) => {
        expect(list.at(i)).toBe(term);
        expect(list.indexOf(term)).toBe(i);
      });
      for (const absent of ['', 'aardvark', 'zzz', 'caf', '注']) expect(list.indexOf(absent)).toBe(sorted.indexOf(absent));
      expect(list.all()).toEqual(sorted);
      expect(TermList.decode(list.encode()).all()).toEqual(sorted);
    }
  });

  it('refuses a saved list whose starts do not fit its text', () => {
    const saved = encodeTerms(['alpha', 'beta', 'gamma']);
    expect(() => TermList.decode(saved.subarray(0, saved.length - 2))).toThrow(CorruptIndexError);
    expect(() => TermList.decode(saved.subarray(0, 10))).toThrow(CorruptIndexError);
    const unordered = saved.slice();
    new DataView(unordered.buffer).setUint32(12, 0, true); // beta would start where alpha does
    expect(() => TermList.decode(unordered)).toThrow(CorruptIndexError);
  });
});
