import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/search/kernels/linalg.js';
import { LEXICAL_FIELDS, LexicalLane, type AnalysedFields, type LexicalParams } from '../../../../src/search/lanes/lexical/lexical.js';

// The lexical index against the textbook definitions, written out plainly over the pages
// as given: BM25 summed per field, and BM25F (fields combined before saturation), each
// with its idf raised to a power or not, on random pages, after random edits and after a save.

type Page = AnalysedFields;

const WORDS = Array.from({ length: 30 }, (_, i) => `w${i}`);

function randomPages(seed: number, count: number): Map<string, Page> {
  const random = seededRandom(seed);
  const words = (most: number): string[] =>
    Array.from({ length: Math.floor(random() * (most + 1)) }, () => WORDS[Math.floor(random() ** 2 * WORDS.length)]!);
  const pages = new Map<string, Page>();
  for (let i = 0; i < count; i++) {
    pages.set(`wiki/p${i}.md`, { key: words(2), title: words(4), summary: words(6), tags: words(2), body: words(40) });
  }
  return pages;
}

/** A field's length: its distinct terms, an empty field counting one. */
const lengthOf = (terms: readonly string[]): number => new Set(terms).size || 1;
const tfOf = (terms: readonly string[], term: string): number => terms.filter((t) => t === term).length;

function plainScores(pages: ReadonlyMap<string, Page>, query: readonly string[], p: LexicalParams): Map<string, number> {
  const N = pages.size;
  const all = [...pages.values()];
  const average = Object.fromEntries(LEXICAL_FIELDS.map((f) => [f, all.reduce((sum, page) => sum + lengthOf(page[f]), 0) / N]));
  const idf = (n: number): number => Math.log(1 + (N - n + 0.5) / (n + 0.5)) ** p.idfExponent;
  const boostOf = (f: (typeof LEXICAL_FIELDS)[number]): number => (p.fieldsCombined ? p.boosts[f] : p.boosts[f] || 1);
  const scores = new Map<string, number>();
  for (const [path, page] of pages) {
    let total = 0;
    const matched = new Set<string>();
    for (const term of query) {
      if (p.fieldsCombined) {
        const n = all.filter((other) => LEXICAL_FIELDS.some((f) => other[f].includes(term))).length;
        if (!LEXICAL_FIELDS.some((f) => page[f].includes(term))) continue;
        matched.add(term);
        const w = LEXICAL_FIELDS.reduce((sum, f) => sum + (boostOf(f) * tfOf(page[f], term)) / (1 - p.b + (p.b * lengthOf(page[f])) / (average[f] || 1)), 0);
        if (w > 0) total += idf(n) * (p.d + (w * (p.k1 + 1)) / (p.k1 + w));
      } else {
        for (const f of LEXICAL_FIELDS) {
          const tf = tfOf(page[f], term);
          if (tf === 0) continue;
          matched.add(term);
          const n = all.filter((other) => other[f].includes(term)).length;
          total += boostOf(f) * idf(n) * (p.d + (tf * (p.k1 + 1)) / (tf + p.k1 * (1 - p.b + (p.b * lengthOf(page[f])) / average[f]!)));
        }
      }
    }
    if (matched.size === 0 || (p.fieldsCombined && total <= 0)) continue;
    scores.set(path, p.matchedTermMultiplier ? total * matched.size : total);
  }
  return scores;
}

const SETTINGS: Array<[string, LexicalParams]> = [
  ['BM25F, tuned boosts', { k1: 1.2, b: 0.75, d: 0, boosts: { key: 2, title: 2, summary: 0.25, tags: 1.5, body: 1 }, matchedTermMultiplier: false, fieldsCombined: true, idfExponent: 1.25 }],
  ['BM25F, plain idf', { k1: 1.2, b: 0.75, d: 0, boosts: { key: 2, title: 2, summary: 0.25, tags: 1.5, body: 1 }, matchedTermMultiplier: false, fieldsCombined: true, idfExponent: 1 }],
  ['BM25F, a field boosted 0, BM25+', { k1: 0.9, b: 0.4, d: 0.5, boosts: { key: 1, title: 3, summary: 0, tags: 1, body: 1 }, matchedTermMultiplier: true, fieldsCombined: true, idfExponent: 1 }],
  ['per-field sum, multiplier', { k1: 1.2, b: 0.75, d: 0, boosts: { key: 2, title: 2, summary: 0.5, tags: 1.5, body: 1 }, matchedTermMultiplier: true, fieldsCombined: false, idfExponent: 1 }],
  ['per-field sum, BM25+', { k1: 2, b: 1, d: 1, boosts: { key: 1, title: 1, summary: 1, tags: 1, body: 0 }, matchedTermMultiplier: false, fieldsCombined: false, idfExponent: 2 }],
];

const QUERIES = [['w0'], ['w1', 'w2'], ['w3', 'w3', 'w4'], ['w0', 'w5', 'w9', 'w14', 'w29'], ['nowhere', 'w2'], ['w22', 'w0', 'w22'], ['w28']];

function expectPlain(lane: LexicalLane, pages: ReadonlyMap<string, Page>): void {
  for (const [, params] of SETTINGS) {
    for (const query of QUERIES) {
      const expected = plainScores(pages, query, params);
      const hits = lane.searchScored(query, 1000, params);
      expect(new Set(hits.map((hit) => hit.id))).toEqual(new Set(expected.keys()));
      for (const hit of hits) expect(hit.score / expected.get(hit.id)!).toBeCloseTo(1, 12);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    }
  }
}

describe('the lexical index against plain BM25 and BM25F', () => {
  it('scores random pages as the definitions in every setting, added, edited and restored', () => {
    for (const seed of [1, 2, 3]) {
      const pages = randomPages(seed, 60);
      const lane = LexicalLane.empty();
      for (const [path, page] of pages) lane.add(path, page);
      expectPlain(lane, pages);
      // Edits: pages replaced, removed and added, with the removed pages' postings still held.
      const random = seededRandom(seed + 100);
      const fresh = randomPages(seed + 200, 20);
      let n = 0;
      for (const [, page] of fresh) {
        const path = `wiki/p${Math.floor(random() * 70)}.md`;
        if (n++ % 3 === 0) {
          lane.remove(path);
          pages.delete(path);
        } else {
          lane.add(path, page);
          pages.set(path, page);
        }
      }
      expectPlain(lane, pages);
      expectPlain(LexicalLane.decode(lane.encode()), pages);
    }
  });

  it('counts no removed page in a term’s document frequency, also before the index is saved', () => {
    const lane = LexicalLane.empty();
    const page = (body: string[]): Page => ({ key: [], title: [], summary: [], tags: [], body });
    const pages = new Map<string, Page>([
      ['wiki/a.md', page(['rare', 'x'])],
      ['wiki/b.md', page(['rare', 'rare', 'rare'])],
      ['wiki/c.md', page(['x'])],
    ]);
    for (const [path, p] of pages) lane.add(path, p);
    lane.remove('wiki/b.md');
    pages.delete('wiki/b.md');
    for (let repeat = 0; repeat < 3; repeat++) expectPlain(lane, pages);
  });
});
