import { describe, expect, it } from 'vitest';
import { LEXICAL_FIELDS, LexicalLane, type AnalysedFields, type LexicalParams } from '../../../../src/search/lanes/lexical/lexical.js';
import { analyze } from '../../../../src/search/text/analyze.js';
import { Bm25Index } from '../../../../src/search/lanes/lexical/bm25-index.js';
import { CorruptIndexError } from '../../../../src/search/kernels/binary.js';
import { Vocabulary } from '../../../../src/search/text/vocabulary.js';

const params: LexicalParams = {
  k1: 1.2,
  b: 0.75,
  d: 0,
  boosts: { key: 2, title: 2, summary: 0.5, tags: 1.5, body: 1 },
  matchedTermMultiplier: true,
  fieldsCombined: false,
  idfExponent: 1,
};
const BM25F: LexicalParams = { ...params, matchedTermMultiplier: false, fieldsCombined: true };

function fields(title: string, body: string): AnalysedFields {
  return { key: analyze(title), title: analyze(title), summary: [], tags: [], body: analyze(body) };
}

const PAGES: Array<[string, string, string]> = [
  ['wiki/a.md', 'Wing flutter', 'flutter of a wing at supersonic speed'],
  ['wiki/b.md', 'Heat transfer', 'heat transfer in a boundary layer at high speed'],
  ['wiki/c.md', 'Boundary layer', 'laminar boundary layer separation on a flat plate'],
  ['wiki/d.md', 'Shock waves', 'shock wave and boundary layer interaction at supersonic speed'],
];

const QUERIES = ['boundary layer', 'supersonic speed', 'wing', 'heat shock', 'nothing here', 'flutter wing', 'laminar plate'];

const scoredBoth = (lane: LexicalLane, query: string) => [lane.searchScored(analyze(query), 50, params), lane.searchScored(analyze(query), 50, BM25F)];

describe('LexicalLane persistence', () => {
  it('answers every query with the very scores of the index it was saved from', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    const restored = LexicalLane.decode(lane.encode());
    for (const query of QUERIES) expect(scoredBoth(restored, query)).toEqual(scoredBoth(lane, query));
    expect(restored.size).toBe(PAGES.length);
  });

  it('leaves removed pages out and keeps working after further changes', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    lane.remove('wiki/c.md');
    expect(lane.has('wiki/c.md')).toBe(false);
    const restored = LexicalLane.decode(lane.encode());
    expect(restored.size).toBe(3);
    expect(restored.search(analyze('laminar'), 10, params)).toEqual([]);
    restored.add('wiki/e.md', fields('Laminar flow', 'laminar flow over a wing'));
    restored.add('wiki/a.md', fields('Wing flutter', 'flutter and divergence'));
    expect(restored.search(analyze('laminar'), 10, params)).toEqual(['wiki/e.md']);
    expect(restored.search(analyze('supersonic'), 10, params)).toEqual(['wiki/d.md']);
    const again = LexicalLane.decode(restored.encode());
    for (const query of [...QUERIES, 'laminar flow', 'divergence']) expect(scoredBoth(again, query)).toEqual(scoredBoth(restored, query));
  });

  it('can drop the matched-term multiplier', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    const query = analyze('boundary layer supersonic');
    const kept = lane.search(query, 10, params);
    const dropped = lane.search(query, 10, { ...params, matchedTermMultiplier: false });
    expect(new Set(dropped)).toEqual(new Set(kept));
  });

  it('leaves out the page paths when they are the page table’s, in the same order, and takes them back from it', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    lane.remove('wiki/b.md');
    const paths = ['wiki/a.md', 'wiki/c.md', 'wiki/d.md'];
    const shared = lane.encode(paths);
    expect(shared.ids).toBeUndefined();
    const restored = LexicalLane.decode(shared, paths);
    for (const query of QUERIES) expect(scoredBoth(restored, query)).toEqual(scoredBoth(lane, query));
    expect(() => LexicalLane.decode(shared)).toThrow(CorruptIndexError);
    // Another order or other pages: the paths are saved.
    expect(lane.encode(['wiki/c.md', 'wiki/a.md', 'wiki/d.md']).ids).toBeDefined();
    expect(lane.encode([...paths, 'wiki/e.md']).ids).toBeDefined();
  });

  it('refuses a lexical section of another layout or other fields (so the index is rebuilt)', () => {
    const lane = LexicalLane.empty();
    lane.add('wiki/a.md', fields('Wing', 'flutter'));
    const sections = lane.encode();
    expect(() => Bm25Index.decode(sections, ['title', 'body'])).toThrow(CorruptIndexError);
    const oldMeta = new TextEncoder().encode(JSON.stringify({ documentCount: 1, nextId: 1, fieldIds: {}, averageFieldLength: [], ids: ['wiki/a.md'] }));
    expect(() => LexicalLane.decode({ ...sections, meta: oldMeta })).toThrow(CorruptIndexError);
    expect(() => LexicalLane.decode({ ...sections, ids: undefined })).toThrow(/ids is missing/);
  });
});

describe('bulk build', () => {
  const pages = [
    ...PAGES.map(([path, title, body]) => ({ path, fields: fields(title, body) })),
    { path: 'wiki/e.md', fields: { key: [], title: [], summary: analyze('flutter flutter flutter'), tags: ['wing'], body: [] } },
  ];
  const vocabulary = new Vocabulary();
  const asIds = (page: (typeof pages)[number]): { path: string; terms: number[]; fieldEnds: number[] } => {
    const terms: number[] = [];
    const fieldEnds: number[] = [];
    for (const f of LEXICAL_FIELDS) {
      for (const term of page.fields[f]) terms.push(vocabulary.id(term));
      fieldEnds.push(terms.length);
    }
    return { path: page.path, terms, fieldEnds };
  };
  const oneByOne = (): LexicalLane => {
    const lane = LexicalLane.empty();
    for (const page of pages) lane.add(page.path, page.fields);
    return lane;
  };
  const built = (): LexicalLane => {
    const lane = LexicalLane.empty();
    lane.addAll(pages.map(asIds), vocabulary);
    return lane;
  };
  const built2 = (): Bm25Index => Bm25Index.build(pages.map(asIds).map((page) => ({ id: page.path, ...page })), vocabulary, LEXICAL_FIELDS);

  it('scores every query exactly as adding the pages one by one', () => {
    const [a, b] = [oneByOne(), built()];
    for (const query of QUERIES) expect(scoredBoth(b, query)).toEqual(scoredBoth(a, query));
    expect(b.size).toBe(a.size);
  });

  it('writes an untouched built or loaded index straight from its flat postings, to the bytes the term-by-term encoding gives', () => {
    const sections = (index: { encode(): Record<string, Uint8Array> }): Record<string, number[]> =>
      Object.fromEntries(Object.entries(index.encode()).map(([name, bytes]) => [name, [...bytes]]));
    const bulk = built2();
    // Untouched: the postings are handed over as they are, not copied.
    expect(bulk.encode().postings).toBe(bulk.encode().postings);
    const direct = sections(bulk);
    expect(sections(oneByOne())).toEqual(direct);
    expect(sections(Bm25Index.decode(bulk.encode(), LEXICAL_FIELDS))).toEqual(direct);
    // A removed page: its postings are left out and the rest renumbered.
    const removed = built2();
    removed.remove('wiki/c.md');
    expect(removed.encode().postings?.length ?? 0).toBeLessThan(direct.postings?.length ?? 0);
  });

  it('takes later changes and survives a save, like an index built one by one', () => {
    const [a, b] = [oneByOne(), built()];
    for (const lane of [a, b]) {
      lane.remove('wiki/c.md');
      lane.add('wiki/f.md', fields('shock', 'shock wave wing'));
      lane.add('wiki/a.md', fields('Wing flutter', 'wing flutter again'));
    }
    for (const query of [...QUERIES, 'shock wing']) expect(scoredBoth(b, query)).toEqual(scoredBoth(a, query));
    const restored = LexicalLane.decode(b.encode());
    for (const query of [...QUERIES, 'shock wing']) expect(scoredBoth(restored, query)).toEqual(scoredBoth(a, query));
  });

  it('is what LexicalLane.addAll uses on an empty lane (one by one otherwise), and refuses duplicate ids', () => {
    const one = oneByOne();
    const later = LexicalLane.empty();
    later.add(pages[0]!.path, pages[0]!.fields);
    later.addAll(pages.slice(1).map(asIds), vocabulary);
    for (const query of QUERIES) {
      expect(built().search(analyze(query), 10, params)).toEqual(one.search(analyze(query), 10, params));
      expect(scoredBoth(later, query)).toEqual(scoredBoth(one, query));
    }
    const empty = { id: 'x', terms: [], fieldEnds: [0, 0, 0, 0, 0] };
    expect(() => Bm25Index.build([empty, empty], vocabulary, LEXICAL_FIELDS)).toThrow(/distinct/);
  });

  it('breaks equal scores by id, also when the best list is cut', () => {
    const lane = LexicalLane.empty();
    for (const id of ['wiki/c.md', 'wiki/a.md', 'wiki/d.md', 'wiki/b.md']) lane.add(id, { key: [], title: ['same'], summary: [], tags: [], body: [] });
    const all = lane.searchScored(['same'], 10, params);
    expect(all.map((hit) => hit.id)).toEqual(['wiki/a.md', 'wiki/b.md', 'wiki/c.md', 'wiki/d.md']);
    expect(new Set(all.map((hit) => hit.score)).size).toBe(1);
    expect(lane.search(['same'], 2, params)).toEqual(['wiki/a.md', 'wiki/b.md']);
    expect(lane.search(['same'], 0, params)).toEqual([]);
  });
});

describe('LexicalLane.documentFrequency (the weight of a query term in search labels)', () => {
  it('counts the live pages holding a term in any field, flat (saved) or added, once each', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    const [boundary] = analyze('boundary');
    expect(lane.documentFrequency(boundary!)).toBe(3);
    expect(lane.documentFrequency(analyze('wing')[0]!)).toBe(1);
    expect(lane.documentFrequency('absentterm')).toBe(0);
    const restored = LexicalLane.decode(lane.encode());
    expect(restored.documentFrequency(boundary!)).toBe(3);
    restored.remove('wiki/c.md');
    expect(restored.documentFrequency(boundary!)).toBe(2);
    restored.add('wiki/e.md', fields('Boundary conditions', 'no layer here'));
    expect(restored.documentFrequency(boundary!)).toBe(3);
  });
});
