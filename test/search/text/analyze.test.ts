import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { analyze, analyzeBoth, mayHoldTerms, stem, wholeTerms } from '../../../src/search/text/analyze.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';
import { ENGLISH_STOPWORDS } from '../../../src/search/text/stopwords.js';

describe('analyze (lexical and built-in semantic terms)', () => {
  const table: Array<[string, string[]]> = [
    ['Attention layers are stacked', ['attent', 'layer', 'stack']],
    ['What is the speed of sound?', ['speed', 'sound']],
    ['the of and to', []],
    ['Café ÉCOLE naïve', ['cafe', 'ecol', 'naiv']],
    ['ＧＰＴ full-width letters', ['gpt', 'full', 'width', 'letter']],
    ['x y 3 42', ['3', '42']],
    // Unspaced scripts: the segmenter's words, and a long word's character pairs (never pairs across words).
    ['注意力机制', ['注意力', '注意', '意力', '机制']],
    ['Transformer 模型', ['transform', '模型']],
    ['日', ['日']],
    ['한국어 문서', ['한국어', '한국', '국어', '문서']],
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
    ['注意力', ['注意力', '注意', '意力']],
  ];
  it.each(table)('%s → %j', (text, terms) => {
    expect(wholeTerms(text)).toEqual(terms);
  });
});

/**
 * The definitions the fast ASCII scanner must match: words are /[a-z0-9]+/ runs of the
 * lower-cased text; whole terms are /[a-z0-9]+(?:[._+#/'-][a-z0-9]+)*(?:\+\+|#)?/ matches,
 * each compound before its parts; stopwords and lone letters are dropped.
 */
const kept = (word: string): boolean => !((word.length < 2 && !/^[0-9]$/.test(word)) || ENGLISH_STOPWORDS.has(word));
function referenceTerms(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter(kept).map((word) => (/^[a-z]+$/.test(word) && word.length >= 3 ? stemmer(word) : word));
}
function referenceWhole(text: string): string[] {
  const out: string[] = [];
  for (const compound of text.toLowerCase().match(/[a-z0-9]+(?:[._+#/'-][a-z0-9]+)*(?:\+\+|#)?/g) ?? []) {
    const pieces = compound.split(/[._+#/'-]+/).filter(Boolean);
    if (pieces.length > 1 || compound !== pieces[0]) out.push(compound);
    out.push(...pieces);
  }
  return out.filter(kept);
}

describe('the ASCII fast path', () => {
  const random = seededRandom(11);
  const alphabet = ['a', 'e', 'in', 'the', 'Run', 'running', 'GPT', '4o', '7', '-', '.', '_', '+', '++', '#', '/', "'", ' ', '  ', '\n', ',', '(', ')', 'C', 'x'];
  const texts = Array.from({ length: 2000 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
  );

  it('gives the same terms and whole terms as the regular-expression definitions', () => {
    for (const text of texts) {
      expect([text, analyze(text)]).toEqual([text, referenceTerms(text)]);
      expect([text, wholeTerms(text)]).toEqual([text, referenceWhole(text)]);
    }
  });

  it('keeps giving the same answers for a vocabulary far larger than its first table', () => {
    const many = Array.from({ length: 40_000 }, (_, i) => `w${i.toString(36)}x Run${i % 7} the-${i % 11}`).join(' ');
    expect(analyze(many)).toEqual(referenceTerms(many));
    expect(wholeTerms(many)).toEqual(referenceWhole(many));
  });

  it('reads a text once for both vocabularies, appending to what is there', () => {
    for (const text of [...texts.slice(0, 200), 'Café gpt-4o 注意力']) {
      const terms = ['earlier'];
      const whole = ['before'];
      analyzeBoth(text, terms, whole);
      expect(terms).toEqual(['earlier', ...analyze(text)]);
      expect(whole).toEqual(['before', ...wholeTerms(text)]);
    }
  });
});

describe('stem (memoised)', () => {
  it('returns what the stemmer returns, on first and repeated calls', () => {
    const words = ['running', 'runs', 'generalisation', 'flies', 'attention', 'layers', 'at', 'x1', 'über'];
    for (const word of [...words, ...words]) {
      expect(stem(word)).toBe(/^[a-z]+$/.test(word) && word.length >= 3 ? stemmer(word) : word);
    }
  });
});

describe('mayHoldTerms (a cheap test before stemming)', () => {
  // Stems and every chain of suffixes Porter's steps rewrite: the tails a stem can gain.
  const roots = ['sens', 'happ', 'relat', 'condit', 'gener', 'valen', 'formal', 'hope', 'conflat', 'hop', 'fil', 'yell', 'abl', 'cr', 'agree', 'feed', 'sky', 'volub', 'dy', 'ti'];
  const suffixes = ['', 'y', 'ies', 'ied', 'ying', 'ity', 'ities', 'ibility', 'ability', 'ably', 'ational', 'ationally', 'ization', 'izations', 'izer', 'ency', 'ancy', 'ently', 'ously', 'ousness', 'iveness', 'fulness', 'ively', 'ivity', 'ical', 'icate', 'icity', 'alize', 'alism', 'ality', 'ness', 'ful', 'ement', 'ment', 'ion', 'tion', 'sses', 's', 'ed', 'ing', 'eed', 'ated', 'bled', 'izing', 'logy', 'logies', 'll', 'e', 'er', 'ize'];
  const words = roots.flatMap((root) => suffixes.flatMap((a) => suffixes.map((b) => `${root}${a}${b}`)));

  it('never rules out a text that yields one of the terms', () => {
    for (const word of words) {
      for (const text of [word, `Some ${word.toUpperCase()} here.`, `x-${word}`]) {
        const terms = analyze(text);
        for (const term of terms) expect(mayHoldTerms(text, [term]), `${text} → ${term}`).toBe(true);
      }
    }
  });

  it('rules out ASCII text whose words cannot stem to a term, never other text', () => {
    expect(mayHoldTerms('Flutter couples bending and torsion.', analyze('turbulence'))).toBe(false);
    expect(mayHoldTerms('Flutter couples bending and torsion.', analyze('turbulence torsions'))).toBe(true);
    expect(mayHoldTerms('Café on the corner.', analyze('corner'))).toBe(true);
    expect(mayHoldTerms('Résumé writing.', analyze('resume'))).toBe(true);
    // A term too short to have an untouched start rules nothing out.
    expect(mayHoldTerms('Nothing alike.', ['ab'])).toBe(true);
  });
});
