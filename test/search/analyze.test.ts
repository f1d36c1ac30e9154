import { describe, expect, it } from 'vitest';
import { analyze, wholeTerms } from '../../src/search/analyze.js';

describe('analyze (lexical and built-in semantic terms)', () => {
  const table: Array<[string, string[]]> = [
    ['Attention layers are stacked', ['attent', 'layer', 'stack']],
    ['What is the speed of sound?', ['speed', 'sound']],
    ['the of and to', []],
    ['Café ÉCOLE naïve', ['cafe', 'ecol', 'naiv']],
    ['ＧＰＴ full-width letters', ['gpt', 'full', 'width', 'letter']],
    ['x y 3 42', ['3', '42']],
    ['注意力机制', ['注意', '意力', '力机', '机制']],
    ['Transformer 模型', ['transform', '模型']],
    ['日', ['日']],
    ['한국어 문서', ['한국', '국어', '문서']],
  ];
  it.each(table)('%s → %j', (text, terms) => {
    expect(analyze(text)).toEqual(terms);
  });

  it('gives ASCII and non-ASCII text the same treatment of ASCII words', () => {
    expect(analyze('Running engines é')).toEqual([...analyze('Running engines'), 'e'].filter((t) => t !== 'e'));
    expect(analyze('Running engines ü')).toEqual(analyze('Running engines'));
  });
});

describe('wholeTerms (token lane)', () => {
  const table: Array<[string, string[]]> = [
    ['GPT-4o release', ['gpt-4o', 'gpt', '4o', 'release']],
    ['node.js and C++ or C#', ['node.js', 'node', 'js', 'c++', 'c#']],
    ['Attention layers', ['attention', 'layers']],
    ['the of and', []],
    ['注意力', ['注意', '意力']],
  ];
  it.each(table)('%s → %j', (text, terms) => {
    expect(wholeTerms(text)).toEqual(terms);
  });
});
