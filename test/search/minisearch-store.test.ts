import { describe, expect, it } from 'vitest';
import { LexicalLane, type AnalysedFields, type LexicalParams } from '../../src/search/lexical.js';
import { analyze } from '../../src/search/analyze.js';
import { PersistableMiniSearch, type LexicalEntry } from '../../src/search/minisearch-store.js';
import type { Options } from 'minisearch';
import { Vocabulary } from '../../src/search/vocabulary.js';
import { seededRandom } from '../../src/search/linalg.js';

const params: LexicalParams = {
  k1: 1.2,
  b: 0.75,
  d: 0,
  boosts: { key: 2, title: 2, summary: 0.5, tags: 1.5, body: 1 },
  matchedTermMultiplier: true,
};

function fields(title: string, body: string): AnalysedFields {
  return { key: analyze(title), title: analyze(title), summary: [], tags: [], body: analyze(body) };
}

const PAGES: Array<[string, string, string]> = [
  ['wiki/a.md', 'Wing flutter', 'flutter of a wing at supersonic speed'],
  ['wiki/b.md', 'Heat transfer', 'heat transfer in a boundary layer at high speed'],
  ['wiki/c.md', 'Boundary layer', 'laminar boundary layer separation on a flat plate'],
  ['wiki/d.md', 'Shock waves', 'shock wave and boundary layer interaction at supersonic speed'],
];

const QUERIES = ['boundary layer', 'supersonic speed', 'wing', 'heat shock', 'nothing here'];

describe('LexicalLane persistence (compact MiniSearch form)', () => {
  it('answers every query exactly as the index it was saved from', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    const restored = LexicalLane.decode(lane.encode());
    for (const query of QUERIES) {
      expect(restored.search(analyze(query), 10, params)).toEqual(lane.search(analyze(query), 10, params));
    }
    expect(restored.size).toBe(PAGES.length);
  });

  it('leaves removed pages out and keeps working after further changes', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    lane.remove('wiki/c.md');
    const restored = LexicalLane.decode(lane.encode());
    expect(restored.size).toBe(3);
    expect(restored.search(analyze('laminar'), 10, params)).toEqual([]);
    restored.add('wiki/e.md', fields('Laminar flow', 'laminar flow over a wing'));
    restored.add('wiki/a.md', fields('Wing flutter', 'flutter and divergence'));
    expect(restored.search(analyze('laminar'), 10, params)).toEqual(['wiki/e.md']);
    expect(restored.search(analyze('supersonic'), 10, params)).toEqual(['wiki/d.md']);
    const again = LexicalLane.decode(restored.encode());
    for (const query of [...QUERIES, 'laminar flow', 'divergence']) {
      expect(again.search(analyze(query), 10, params)).toEqual(restored.search(analyze(query), 10, params));
    }
  });

  it('can drop MiniSearch’s matched-term multiplier', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    const query = analyze('boundary layer supersonic');
    const kept = lane.search(query, 10, params);
    const dropped = lane.search(query, 10, { ...params, matchedTermMultiplier: false });
    expect(new Set(dropped)).toEqual(new Set(kept));
  });
});

describe('bulk build', () => {
  const FIELDS = ['key', 'title', 'summary', 'tags', 'body'];
  const split = (text: string): string[] => text.split(' ');
  const options: Options<LexicalEntry> = {
    fields: FIELDS,
    tokenize: split,
    processTerm: (term) => term || null,
    searchOptions: { tokenize: split, processTerm: (term) => term || null },
  };
  const pages = [
    ...PAGES.map(([path, title, body]) => ({ path, fields: fields(title, body) })),
    { path: 'wiki/e.md', fields: { key: [], title: [], summary: analyze('flutter flutter flutter'), tags: ['wing'], body: [] } },
  ];
  const byOneByOne = (): PersistableMiniSearch => {
    const index = new PersistableMiniSearch(options);
    for (const page of pages) index.add({ id: page.path, ...Object.fromEntries(FIELDS.map((f) => [f, page.fields[f as keyof AnalysedFields].join(' ')])) });
    return index;
  };
  const vocabulary = new Vocabulary();
  const asIds = (page: (typeof pages)[number]): { path: string; terms: number[]; fieldEnds: number[] } => {
    const terms: number[] = [];
    const fieldEnds: number[] = [];
    for (const f of FIELDS) {
      for (const term of page.fields[f as keyof AnalysedFields]) terms.push(vocabulary.id(term));
      fieldEnds.push(terms.length);
    }
    return { path: page.path, terms, fieldEnds };
  };
  const built = (): PersistableMiniSearch =>
    PersistableMiniSearch.build(
      pages.map(asIds).map((page) => ({ id: page.path, terms: page.terms, fieldEnds: page.fieldEnds })),
      vocabulary,
      options,
    );
  const scored = (index: PersistableMiniSearch, query: string): Array<[string, number]> =>
    index.search(analyze(query).join(' '), { boost: params.boosts }).map((r) => [String(r.id), r.score]);

  it('scores every query exactly as adding the pages one by one', () => {
    const a = byOneByOne();
    const b = built();
    for (const query of [...QUERIES, 'flutter wing', 'laminar plate']) expect(scored(b, query)).toEqual(scored(a, query));
    expect(b.documentCount).toBe(a.documentCount);
    expect(b.termCount).toBe(a.termCount);
  });

  it('takes later changes and survives a save, like an index built one by one', () => {
    const a = byOneByOne();
    const b = built();
    for (const index of [a, b]) {
      index.discard('wiki/c.md');
      index.add({ id: 'wiki/f.md', key: 'shock', title: 'shock', summary: '', tags: '', body: 'shock wave wing' });
    }
    for (const query of [...QUERIES, 'shock wing']) expect(scored(b, query)).toEqual(scored(a, query));
    const restored = PersistableMiniSearch.decode(b.encode(), options);
    for (const query of [...QUERIES, 'shock wing']) expect(scored(restored, query)).toEqual(scored(a, query));
  });

  it('is what LexicalLane.addAll uses on an empty lane (one by one otherwise), and refuses duplicate ids', () => {
    const one = LexicalLane.empty();
    for (const page of pages) one.add(page.path, page.fields);
    const bulk = LexicalLane.empty();
    bulk.addAll(pages.map(asIds), vocabulary);
    const later = LexicalLane.empty();
    later.add(pages[0]!.path, pages[0]!.fields);
    later.addAll(pages.slice(1).map(asIds), vocabulary);
    for (const query of QUERIES) {
      expect(bulk.search(analyze(query), 10, params)).toEqual(one.search(analyze(query), 10, params));
      expect(later.search(analyze(query), 10, params)).toEqual(one.search(analyze(query), 10, params));
    }
    const empty = { id: 'x', terms: [], fieldEnds: [0, 0, 0, 0, 0] };
    expect(() => PersistableMiniSearch.build([empty, empty], vocabulary, options)).toThrow(/distinct/);
  });
});

describe('searchExact', () => {
  const FIELDS = ['key', 'title', 'summary', 'tags', 'body'];
  const split = (text: string): string[] => text.split(' ');
  const options: Options<LexicalEntry> = {
    fields: FIELDS,
    tokenize: split,
    processTerm: (term) => term || null,
    autoVacuum: false,
    searchOptions: { tokenize: split, processTerm: (term) => term || null },
  };
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
