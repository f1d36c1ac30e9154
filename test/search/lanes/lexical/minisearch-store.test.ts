import { describe, expect, it } from 'vitest';
import { LexicalLane, type AnalysedFields, type LexicalParams } from '../../../../src/search/lanes/lexical/lexical.js';
import { analyze } from '../../../../src/search/text/analyze.js';
import { PersistableMiniSearch } from '../../../../src/search/lanes/lexical/minisearch-store.js';
import { Vocabulary } from '../../../../src/search/text/vocabulary.js';
import { spaceSplitOptions } from '../../helpers.js';

const params: LexicalParams = {
  k1: 1.2,
  b: 0.75,
  d: 0,
  boosts: { key: 2, title: 2, summary: 0.5, tags: 1.5, body: 1 },
  matchedTermMultiplier: true,
  // MiniSearch's own per-field arithmetic, which these tests hold the flat scorer to.
  fieldsCombined: false,
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
  const options = spaceSplitOptions();
  const FIELDS = options.fields;
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

  it('writes an untouched built or loaded index straight from its flat postings, to the bytes the term-by-term encoding gives', () => {
    const sections = (index: PersistableMiniSearch): Record<string, number[]> =>
      Object.fromEntries(Object.entries(index.encode()).map(([name, bytes]) => [name, [...bytes]]));
    const bulk = built();
    // Untouched: the postings are handed over as they are, not copied.
    expect(bulk.encode().postings).toBe(bulk.encode().postings);
    const direct = sections(bulk);
    // A search moves the terms it reads into the tree: the encoding goes term by term.
    const searched = built();
    scored(searched, 'boundary layer wing');
    expect(searched.encode().postings).not.toBe(searched.encode().postings);
    expect(sections(searched)).toEqual(direct);
    const loaded = PersistableMiniSearch.decode(bulk.encode(), options);
    expect(sections(loaded)).toEqual(direct);
    // A discarded page: its postings are left out, so the encoding goes term by term.
    const discarded = built();
    discarded.discard('wiki/c.md');
    expect(discarded.encode().postings?.length).toBeLessThan(direct.postings?.length ?? 0);
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
