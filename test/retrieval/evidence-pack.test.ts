import { describe, expect, it } from 'vitest';
import { buildEvidencePack, renderEvidencePack, type PackLimits, type PackView } from '../../src/retrieval/evidence-pack.js';
import { bestPassages, questionTerms } from '../../src/retrieval/passages.js';
import { parsePage, type Page } from '../../src/wiki/page.js';

function page(key: string, refs: string[], body: string): Page {
  const front = ['---', `title: ${key.replace(/-/g, ' ')}`, `summary: About ${key}.`, ...(refs.length ? [`refs: [${refs.join(', ')}]`] : []), '---', ''];
  return parsePage(`wiki/concepts/${key}.md`, `${front.join('\n')}${body}\n`);
}

/** attention → transformer → positional-encoding; attention links multi-head; hidden is never shown. */
const PAGES = [
  page('attention', ['transformer'], 'Intro paragraph about nothing much.\n\nAttention weighs every token by softmax over query-key scores.\n\nSee [[multi-head-attention]] and [[hidden]].'),
  page('transformer', ['positional-encoding', 'attention'], 'The transformer stacks attention layers that weigh tokens, with feed-forward blocks.'),
  page('positional-encoding', ['sinusoid'], 'Positions of tokens are added to the attention input as sine waves of growing wavelength.'),
  page('sinusoid', [], 'A sine curve.'),
  page('multi-head-attention', [], 'Several heads attend in parallel.'),
  page('hidden', [], 'SECRET text the asker may not see.'),
];

const view: PackView = {
  page: (key) => (key === 'hidden' ? undefined : PAGES.find((p) => p.key === key)),
  body: (p) => p.body,
};

const LIMITS: PackLimits = { seeds: 5, hops: 2, maxPages: 12, maxChars: 12_000 };

describe('buildEvidencePack', () => {
  it('keeps the seeds, follows refs and links breadth first up to two hops, and writes the chain', () => {
    const pack = buildEvidencePack('how does attention weigh tokens?', [{ key: 'attention' }], view, LIMITS);
    expect(pack.pages.map((p) => [p.key, p.depth])).toEqual([
      ['attention', 0],
      ['transformer', 1],
      ['multi-head-attention', 1],
      ['positional-encoding', 2],
    ]);
    expect(pack.chain).toEqual([
      'attention --refs--> transformer',
      'attention --links--> multi-head-attention',
      'transformer --refs--> positional-encoding',
    ]);
    // Only the links followed: the link back from transformer to attention reached no new page.
    expect(pack.edges.map((edge) => edge.to)).toEqual(['transformer', 'multi-head-attention', 'positional-encoding']);
    expect(pack.pages[3]?.via).toBe('transformer --refs--> positional-encoding');
    expect(renderEvidencePack(pack)).not.toContain('SECRET');
    expect(pack.pages[0]?.passages[0]).toBe('Attention weighs every token by softmax over query-key scores.');
  });

  it('a page one link away enters only when it matches the question; the seeds keep the budget', () => {
    const pack = buildEvidencePack('softmax over query-key scores', [{ key: 'attention' }], view, LIMITS);
    expect(pack.pages.map((p) => p.key)).toEqual(['attention']);
    expect(pack.chain).toEqual([]);
    // A linked page whose title or body holds a question term comes, and the pages it links to when they do too.
    expect(buildEvidencePack('parallel heads', [{ key: 'attention' }], view, LIMITS).pages.map((p) => p.key)).toEqual(['attention', 'multi-head-attention']);
    expect(buildEvidencePack('what weighs tokens', [{ key: 'attention' }], view, LIMITS).pages.map((p) => p.key)).toEqual(['attention', 'transformer', 'positional-encoding']);
  });

  it('lists at most ten chain lines on a densely linked wiki, one per page reached, never every link among them', () => {
    const keys = Array.from({ length: 14 }, (_, i) => `topic-${i}`);
    const dense = keys.map((key) => page(key, keys.filter((other) => other !== key), `The ${key} page on attention.`));
    const denseView: PackView = { page: (key) => dense.find((p) => p.key === key), body: (p) => p.body };
    const pack = buildEvidencePack('attention', [{ key: 'topic-0' }, { key: 'topic-1' }, { key: 'topic-2' }], denseView, { ...LIMITS, maxPages: 12 });
    expect(pack.pages).toHaveLength(12);
    expect(pack.chain.length).toBeLessThanOrEqual(10);
    expect(pack.edges).toHaveLength(9);
    expect(new Set(pack.edges.map((edge) => edge.to)).size).toBe(9);
    expect(renderEvidencePack(pack).split('\n').filter((line) => line.startsWith('- topic-')).length).toBe(pack.chain.length);
  });

  it.each([
    [0, 12, ['attention']],
    [1, 12, ['attention', 'transformer', 'multi-head-attention']],
    [2, 2, ['attention', 'transformer']],
    [2, 1, ['attention']],
  ])('hops %i, maxPages %i: %j', (hops, maxPages, keys) => {
    const pack = buildEvidencePack('attention', [{ key: 'attention' }], view, { ...LIMITS, hops, maxPages });
    expect(pack.pages.map((p) => p.key)).toEqual(keys);
    for (const edge of pack.edges) expect(keys).toEqual(expect.arrayContaining([edge.from, edge.to]));
  });

  it('keeps every seed even past maxPages (while the budget holds), and no hit is found: false', () => {
    const seeds = [{ key: 'sinusoid' }, { key: 'attention' }, { key: 'hidden' }, { key: 'transformer' }];
    const pack = buildEvidencePack('sine', seeds, view, { ...LIMITS, maxPages: 1 });
    expect(pack.pages.map((p) => p.key)).toEqual(['sinusoid', 'attention', 'transformer']);
    expect(buildEvidencePack('nothing', [], view, LIMITS)).toMatchObject({ found: false, pages: [], chain: [] });
  });

  it.each([600, 900, 1500, 3000, 12_000])('stays within a budget of %i characters', (maxChars) => {
    const long = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} on attention and transformers, at some length to fill the budget.`).join('\n\n');
    const big = [page('a', ['b', 'c'], long), page('b', ['c', 'a'], long), page('c', ['a', 'b'], long)];
    const bigView: PackView = { page: (key) => big.find((p) => p.key === key), body: (p) => p.body };
    const pack = buildEvidencePack('attention transformers', [{ key: 'a' }], bigView, { ...LIMITS, maxChars });
    expect(pack.chars).toBe(renderEvidencePack(pack).length);
    expect(pack.chars).toBeLessThanOrEqual(maxChars);
    expect(pack.pages[0]?.key).toBe('a');
  });
  it('on a budget too tight for every seed header, the best seed still gets its passage and the rest are dropped from the end', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} on attention budgets, long enough to be worth quoting here.`).join('\n\n');
    const many = Array.from({ length: 8 }, (_, i) => page(`seed-${i}`, [], long));
    const manyView: PackView = { page: (key) => many.find((p) => p.key === key), body: (p) => p.body };
    const pack = buildEvidencePack('attention budgets', many.map((p) => ({ key: p.key })), manyView, { ...LIMITS, seeds: 8, maxChars: 900 });
    expect(pack.pages[0]?.key).toBe('seed-0');
    expect(pack.pages[0]?.passages.join('').length).toBeGreaterThan(0);
    expect(pack.pages.length).toBeLessThan(8);
    expect(pack.chars).toBeLessThanOrEqual(900);
  });
});

describe('bestPassages', () => {
  it('takes the paragraphs with the most question terms, in page order; a page with none gives its opening', () => {
    const body = 'Opening words.\n\nBM25 ranks words.\n\n<!-- from: raw/x.md#L1-2 -->\nRank fusion joins BM25 and LSA ranks.\n\nClosing.';
    // A passage keeps its citation, so an answer can cite the source lines without reading the page.
    expect(bestPassages(body, questionTerms('rank fusion of BM25'), 1000)).toEqual(['BM25 ranks words.', '<!-- from: raw/x.md#L1-2 -->\nRank fusion joins BM25 and LSA ranks.']);
    expect(bestPassages(body, questionTerms('rank fusion of BM25'), 100)).toEqual(['<!-- from: raw/x.md#L1-2 -->\nRank fusion joins BM25 and LSA ranks.']);
    expect(bestPassages(body, questionTerms('zebra'), 1000)[0]).toBe('Opening words.');
    expect(bestPassages(body, questionTerms('zebra'), 10)).toEqual([]);
  });

  it('ends a cut excerpt on a sentence boundary, never mid-word', () => {
    const paragraph =
      'The checksum database serves go.sum lines for every public module. It is a transparent log, so a client can audit it. ' +
      'When it cannot be reached the go command fails hard, unless the module is listed in GONOSUMDB. Private modules must be listed there.';
    const [excerpt = ''] = bestPassages(paragraph, questionTerms('checksum database failure'), 200);
    expect(excerpt).toBe('The checksum database serves go.sum lines for every public module. It is a transparent log, so a client can audit it.');
    expect(excerpt.length).toBeLessThanOrEqual(200);
  });

  it('gives a first sentence a little longer than the room whole, with its citation; a far longer one is cut on a word (a played query\'s passage stopped right before its quote)', () => {
    const sentence = `Bucket data follows the same-origin principle and, like data in the default bucket, "is only accessible within the same storage partition". <!-- from: raw/b.md#L624-629 -->`;
    const [whole = ''] = bestPassages(`## Partitioning\n${sentence} More after it.`, questionTerms('partition bucket'), 120);
    expect(whole).toBe(`## Partitioning\n${sentence}`);
    const long = `Buckets ${'hold data of many kinds and '.repeat(30)}end here.`;
    const [cut = ''] = bestPassages(long, questionTerms('buckets'), 120);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(120);
  });

  it('keeps a citation with the sentence before it when a passage is cut, and one on a line of its own with its paragraph; other comments go', () => {
    const paragraph = 'The database serves go.sum lines. <!-- from: raw/go.md#L4-6 --> It is a transparent log that clients audit at length every day.';
    expect(bestPassages(paragraph, questionTerms('database lines'), 90)).toEqual(['The database serves go.sum lines. <!-- from: raw/go.md#L4-6 -->']);
    const body = 'Failure stops the go command.\n\n<!-- from: raw/go.md#L9 -->\n\n<!-- a note to self -->Unrelated closing words here.';
    expect(bestPassages(body, questionTerms('failure'), 1000)).toEqual(['Failure stops the go command.\n<!-- from: raw/go.md#L9 -->']);
    // The citation's file name is no match for a question about it.
    expect(bestPassages('Opening.\n\nText. <!-- from: raw/zebra.md#L1 -->', questionTerms('zebra'), 1000)[0]).toBe('Opening.');
  });

  it('brings the paragraph under a heading that matches the question, not the bare heading', () => {
    const body = '## Failure handling\n\nThe go command stops when the database cannot answer.\n\n## History\n\nProposed in 2019 for failure cases.';
    expect(bestPassages(body, questionTerms('failure handling'), 1000)[0]).toBe('## Failure handling\nThe go command stops when the database cannot answer.');
  });
});
