import SearchableMap from 'minisearch/SearchableMap';
import { describe, expect, it } from 'vitest';
import { encodeTerms } from '../../../../src/search/kernels/binary.js';
import { FlatTermIndex, LazyTermData, type TermData } from '../../../../src/search/lanes/token/term-index.js';
import { TermList } from '../../../../src/search/kernels/term-list.js';
import { VarintWriter } from '../../../../src/search/kernels/varint.js';

/** Flat postings for `terms` (sorted): term i has field 0 with document i, tf i + 1. */
function flatOf(terms: string[]): FlatTermIndex {
  const postings = new VarintWriter();
  const offsets: number[] = [];
  terms.forEach((_, i) => {
    offsets.push(postings.length);
    postings.push(0);
    postings.push(1);
    postings.pushGap(i);
    postings.push(i + 1);
  });
  offsets.push(postings.length);
  return new FlatTermIndex({ terms: TermList.decode(encodeTerms(terms)), offsets: Uint32Array.from(offsets), postings: postings.finish() });
}

const dataOf = (doc: number, tf: number): TermData => new Map([[0, new Map([[doc, tf]])]]);
const plain = (map: TermData | undefined): unknown => (map ? [...map].map(([field, docs]) => [field, [...docs]]) : undefined);
const TERMS = ['apple', 'apply', 'banana', 'band', 'cherry'];

describe('FlatTermIndex (a SearchableMap over flat postings)', () => {
  it('answers get, has and size like a SearchableMap holding the same entries', () => {
    const flat = flatOf(TERMS);
    const reference = new SearchableMap<TermData>();
    TERMS.forEach((term, i) => reference.set(term, dataOf(i, i + 1)));
    for (const term of [...TERMS, 'ban', 'zebra', '']) {
      expect(flat.has(term)).toBe(reference.has(term));
      expect(plain(flat.get(term))).toEqual(plain(reference.get(term)));
    }
    expect(flat.size).toBe(reference.size);
  });

  it('keeps writes, deletions and fetches, and never brings a deleted term back', () => {
    const flat = flatOf(TERMS);
    flat.delete('banana');
    expect(flat.has('banana')).toBe(false);
    expect(flat.get('banana')).toBeUndefined();
    flat.set('apple', dataOf(9, 9));
    expect(plain(flat.get('apple'))).toEqual([[0, [[9, 9]]]]);
    const fetched = flat.fetch('band', () => new Map());
    fetched.get(0)?.set(7, 1);
    expect(plain(flat.get('band'))).toEqual([[0, [[3, 4], [7, 1]]]]);
    expect(flat.fetch('durian', () => dataOf(5, 2)).get(0)?.get(5)).toBe(2);
    flat.update('cherry', () => dataOf(1, 1));
    expect(plain(flat.get('cherry'))).toEqual([[0, [[1, 1]]]]);
    expect(flat.size).toBe(5);
    expect([...flat.keys()].sort()).toEqual(['apple', 'apply', 'band', 'cherry', 'durian']);
  });

  it('serves prefix and fuzzy lookups over every term', () => {
    const flat = flatOf(TERMS);
    expect([...flat.atPrefix('ban').keys()].sort()).toEqual(['banana', 'band']);
    expect([...flat.fuzzyGet('apple', 1).keys()].sort()).toEqual(['apple', 'apply']);
  });

  it('hands out unread entries as raw spans, and read ones as maps', () => {
    const flat = flatOf(TERMS);
    flat.get('apply');
    const entries = new Map(flat.rawEntries());
    expect(entries.get('apply')).toBeInstanceOf(LazyTermData);
    expect(entries.get('cherry')).toMatchObject({ start: 16, end: 20 }); // four one-byte varints per term
    expect(entries.size).toBe(TERMS.length);
  });
});
