import { describe, expect, it } from 'vitest';
import { hasConstraints, parseQuery, QueryFilter } from '../../../src/search/text/query-syntax.js';

describe('parseQuery', () => {
  it.each([
    ['plain words', 'boundary layer flow', { text: 'boundary layer flow', phrases: [], excluded: [] }],
    ['a phrase', 'flow "boundary layer"', { text: 'flow boundary layer', phrases: ['boundary layer'], excluded: [] }],
    ['an excluded word', 'attention -transformer', { text: 'attention', phrases: [], excluded: ['transformer'] }],
    ['an excluded phrase', 'wing -"swept wing"', { text: 'wing', phrases: [], excluded: ['swept wing'] }],
    ['a hyphenated word is no exclusion', 'gpt-4o multi-head', { text: 'gpt-4o multi-head', phrases: [], excluded: [] }],
    ['a lone dash is text', 'a - b', { text: 'a - b', phrases: [], excluded: [] }],
    ['a quote left open is text', 'say "hello world', { text: 'say hello world', phrases: [], excluded: [] }],
    ['an empty phrase is dropped', 'x ""', { text: 'x', phrases: [], excluded: [] }],
  ])('%s', (_name, query, expected) => {
    expect(parseQuery(query)).toEqual(expected);
  });

  it('says when a query constrains pages beyond ranking', () => {
    expect(hasConstraints(parseQuery('a b'))).toBe(false);
    expect(hasConstraints(parseQuery('"a b"'))).toBe(true);
    expect(hasConstraints(parseQuery('a -b'))).toBe(true);
  });
});

describe('QueryFilter', () => {
  it.each([
    ['a phrase across markup and case', '"boundary layer"', 'The **Boundary** layer, laminar.', true],
    ['a phrase out of order', '"boundary layer"', 'layer boundary', false],
    ['a phrase inside a longer word', '"oundary layer"', 'boundary layer', false],
    ['every phrase must hold', '"boundary layer" "shock wave"', 'boundary layer only', false],
    ['an excluded word in another form', 'attention -transformer', 'Transformers use attention.', false],
    ['an excluded word absent', 'attention -transformer', 'Attention heads.', true],
    ['an excluded phrase', 'wing -"swept wing"', 'a swept wing', false],
    ['an excluded phrase whose words appear apart', 'wing -"swept wing"', 'a wing, swept back', true],
    ['an excluded stopword matches as a word', 'x -the', 'the x', false],
  ])('%s', (_name, query, page, accepted) => {
    expect(new QueryFilter(parseQuery(query)).accepts(page)).toBe(accepted);
  });
});
