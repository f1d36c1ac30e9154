import { describe, expect, it } from 'vitest';
import { analyze } from '../../../../src/search/text/analyze.js';
import { LexicalLane, type AnalysedFields, type LexicalParams } from '../../../../src/search/lanes/lexical/lexical.js';

const params: LexicalParams = {
  k1: 1.2,
  b: 0.75,
  d: 0,
  boosts: { key: 1, title: 1, summary: 1, tags: 1, body: 1 },
  matchedTermMultiplier: false,
  fieldsCombined: true,
  idfExponent: 1,
};

function only(field: keyof AnalysedFields, text: string): AnalysedFields {
  const fields: AnalysedFields = { key: [], title: [], summary: [], tags: [], body: [] };
  return { ...fields, [field]: analyze(text) };
}

const BODIES: Array<[string, string]> = [
  ['a.md', 'wing flutter wing flutter at speed'],
  ['b.md', 'heat transfer in a boundary layer'],
  ['c.md', 'laminar boundary layer on a flat plate wing'],
];

/** Textbook BM25 over one field, with MiniSearch's field length: the number of distinct terms. */
function plainBm25(term: string): Map<string, number> {
  const docs = BODIES.map(([path, body]) => ({ path, terms: analyze(body), length: new Set(analyze(body)).size }));
  const avg = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length;
  const df = docs.filter((doc) => doc.terms.includes(term)).length;
  const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
  const scores = new Map<string, number>();
  for (const doc of docs) {
    const tf = doc.terms.filter((t) => t === term).length;
    if (tf > 0) scores.set(doc.path, (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * doc.length) / avg)));
  }
  return scores;
}

describe('LexicalLane with BM25F (fields combined before saturation)', () => {
  it('is textbook BM25 when a page has one field, added one by one or restored', () => {
    const lane = LexicalLane.empty();
    for (const [path, body] of BODIES) lane.add(path, only('body', body));
    const restored = LexicalLane.decode(lane.encode());
    for (const term of ['wing', 'boundari', 'flutter']) {
      const expected = plainBm25(term);
      for (const index of [lane, restored]) {
        const hits = index.searchScored([term], 10, params);
        expect(new Set(hits.map((hit) => hit.id))).toEqual(new Set(expected.keys()));
        for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.id) ?? -1, 12);
      }
    }
  });

  it('saturates a term once over the fields: title and body together score less than twice one of them', () => {
    const lane = LexicalLane.empty();
    lane.add('both.md', { ...only('title', 'wing'), body: analyze('wing') });
    lane.add('title.md', only('title', 'wing'));
    lane.add('other.md', only('body', 'flat plate'));
    const scores = new Map(lane.searchScored(['wing'], 10, params).map((hit) => [hit.id, hit.score]));
    const both = scores.get('both.md') ?? 0;
    const one = scores.get('title.md') ?? 0;
    expect(both).toBeGreaterThan(one);
    expect(both).toBeLessThan(2 * one);
  });

  it('leaves out a field boosted 0, and pages that matched only there', () => {
    const lane = LexicalLane.empty();
    lane.add('summary.md', only('summary', 'wing'));
    lane.add('body.md', only('body', 'wing'));
    const ids = lane.search(['wing'], 10, { ...params, boosts: { ...params.boosts, summary: 0 } });
    expect(ids).toEqual(['body.md']);
  });

  it('with an idf exponent above 1, weighs a rare query word more against a commoner one', () => {
    // "flutter" is on 1 page of 10, "method" on 3: a short page saying "method" three times
    // outranks a longer one saying "flutter" once under plain BM25, not with the idf squared.
    const lane = LexicalLane.empty();
    lane.add('rare.md', only('body', 'flutter word0 word1'));
    lane.add('common.md', only('body', 'method method method'));
    lane.add('m1.md', only('body', 'method alpha'));
    lane.add('m2.md', only('body', 'method beta'));
    for (let i = 0; i < 6; i++) lane.add(`filler-${i}.md`, only('body', `filler${i} other`));
    const query = analyze('flutter method');
    expect(lane.search(query, 2, params)).toEqual(['common.md', 'rare.md']);
    expect(lane.search(query, 2, { ...params, idfExponent: 2 })).toEqual(['rare.md', 'common.md']);
    // One term alone: every score is its plain score times idf^(exponent − 1).
    const idfOfMethod = Math.log(1 + (10 - 3 + 0.5) / (3 + 0.5));
    const plain = new Map(lane.searchScored(['method'], 10, params).map((hit) => [hit.id, hit.score]));
    const squared = lane.searchScored(['method'], 10, { ...params, idfExponent: 2 });
    expect(squared).toHaveLength(3);
    for (const hit of squared) expect(hit.score / plain.get(hit.id)!).toBeCloseTo(idfOfMethod, 12);
  });
});
