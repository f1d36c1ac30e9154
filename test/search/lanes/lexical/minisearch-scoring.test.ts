import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/search/kernels/linalg.js';
import { PersistableMiniSearch, type LexicalEntry } from '../../../../src/search/lanes/lexical/minisearch-store.js';
import { Vocabulary } from '../../../../src/search/text/vocabulary.js';
import { spaceSplitOptions } from '../../helpers.js';

// The exact scorer reads a MiniSearch index's protected state, so it is exercised through
// the index that hands it over (PersistableMiniSearch.searchExact) and checked against
// MiniSearch's own search over the very same index.
describe('searchExact', () => {
  const options = spaceSplitOptions({ autoVacuum: false });
  const FIELDS = options.fields;
  const WORDS = Array.from({ length: 24 }, (_, i) => `w${i}`);
  const random = seededRandom(7);
  const words = (most: number): string =>
    Array.from({ length: Math.floor(random() * (most + 1)) }, () => WORDS[Math.floor(random() ** 2 * WORDS.length)]).join(' ');
  const entry = (id: string): LexicalEntry => ({ id, key: words(2), title: words(4), summary: words(6), tags: words(2), body: words(30) });
  const ENTRIES = Array.from({ length: 80 }, (_, i) => entry(`wiki/p${String(i).padStart(2, '0')}.md`));
  const REPLACEMENTS = ENTRIES.slice(0, 12).map((e) => entry(e.id));
  const QUERIES = [
    ['w0'],
    ['w1', 'w2'],
    ['w3', 'w3', 'w4'],
    ['w0', 'w5', 'w9', 'w14', 'w23'],
    ['nowhere', 'w2'],
    ['w22', 'w0', 'w22'],
  ];
  const SETTINGS: Array<{ boost: Record<string, number>; bm25: { k: number; b: number; d: number } }> = [
    { boost: { key: 2, title: 2, summary: 0.5, tags: 1.5, body: 1 }, bm25: { k: 1.2, b: 0.75, d: 0 } },
    { boost: { title: 3, body: 0 }, bm25: { k: 0.9, b: 0.4, d: 0.5 } },
  ];
  const multiply = (score: number, matched: number): number => score * matched;
  const divide = (score: number, matched: number): number => (score * matched) / Math.max(1, matched);

  /** What the lexical lane ranked with MiniSearch's own search: its score (or that divided by the matched terms), best first, ties by id. */
  const reference = (index: PersistableMiniSearch, terms: string[], setting: (typeof SETTINGS)[number], limit: number, adjust: typeof multiply) =>
    index
      .search(terms.join(' '), { ...setting, combineWith: 'OR', prefix: false, fuzzy: false })
      .map((r) => ({ id: String(r.id), score: adjust === multiply ? r.score : r.score / Math.max(1, r.queryTerms.length) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, limit);

  const oneByOne = (): PersistableMiniSearch => {
    const index = new PersistableMiniSearch(options);
    for (const e of ENTRIES) index.add(e);
    return index;
  };
  const bulk = (): PersistableMiniSearch => {
    const vocabulary = new Vocabulary();
    const analysed = ENTRIES.map((e) => {
      const terms: number[] = [];
      const fieldEnds: number[] = [];
      for (const field of FIELDS) {
        for (const term of (e[field] ?? '').split(' ').filter(Boolean)) terms.push(vocabulary.id(term));
        fieldEnds.push(terms.length);
      }
      return { id: e.id, terms, fieldEnds };
    });
    return PersistableMiniSearch.build(analysed, vocabulary, options);
  };
  const edit = (index: PersistableMiniSearch): PersistableMiniSearch => {
    for (const e of REPLACEMENTS) {
      index.discard(e.id);
      index.add(e);
    }
    index.discard(ENTRIES[20]!.id);
    return index;
  };

  const cases: Array<[string, () => PersistableMiniSearch]> = [
    ['added one by one (postings in maps)', oneByOne],
    ['bulk built (flat postings)', bulk],
    ['loaded from its saved form', () => PersistableMiniSearch.decode(bulk().encode(), options)],
    ['edited after adding one by one (discarded postings met while scoring)', () => edit(oneByOne())],
    ['edited after a bulk build', () => edit(bulk())],
    ['edited after loading', () => edit(PersistableMiniSearch.decode(bulk().encode(), options))],
  ];

  it.each(cases)('ranks with MiniSearch’s very scores and order: %s', (_, make) => {
    // Scoring an edited index tidies its postings as it goes, as MiniSearch's does: the
    // two indexes are queried in the same sequence, each query twice.
    const expected = make();
    const actual = make();
    for (const setting of SETTINGS) {
      for (const terms of QUERIES) {
        for (const [limit, adjust] of [[5, multiply], [200, multiply], [7, divide], [200, divide]] as const) {
          const want = reference(expected, terms, setting, limit, adjust);
          expect(actual.searchExact(terms, setting.boost, setting.bm25, limit, adjust)).toEqual(want);
          expect(actual.searchExact(terms, setting.boost, setting.bm25, limit, adjust)).toEqual(reference(expected, terms, setting, limit, adjust));
        }
      }
    }
  });

  it('ranks as MiniSearch while pages are added between searches', () => {
    const expected = oneByOne();
    const actual = bulk();
    const [setting] = SETTINGS;
    for (let n = 0; n < 15; n++) {
      const added = entry(`wiki/new-${n}.md`);
      expected.add(added);
      actual.add(added);
      for (const terms of QUERIES) {
        expect(actual.searchExact(terms, setting!.boost, setting!.bm25, 30, multiply)).toEqual(reference(expected, terms, setting!, 30, multiply));
      }
    }
  });

  it('breaks equal scores by id, also when the best list is cut', () => {
    const index = new PersistableMiniSearch(options);
    for (const id of ['wiki/c.md', 'wiki/a.md', 'wiki/d.md', 'wiki/b.md']) index.add({ id, key: '', title: 'same', summary: '', tags: '', body: '' });
    const all = index.searchExact(['same'], {}, { k: 1.2, b: 0.75, d: 0 }, 10, multiply);
    expect(all.map((hit) => hit.id)).toEqual(['wiki/a.md', 'wiki/b.md', 'wiki/c.md', 'wiki/d.md']);
    expect(new Set(all.map((hit) => hit.score)).size).toBe(1);
    expect(index.searchExact(['same'], {}, { k: 1.2, b: 0.75, d: 0 }, 2, multiply).map((hit) => hit.id)).toEqual(['wiki/a.md', 'wiki/b.md']);
    expect(index.searchExact(['same'], {}, { k: 1.2, b: 0.75, d: 0 }, 0, multiply)).toEqual([]);
  });
});
