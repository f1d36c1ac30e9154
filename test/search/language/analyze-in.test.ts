import { describe, expect, it } from 'vitest';
import { analyze, analyzeQuery, wholeTerms } from '../../../src/search/text/analyze.js';
import { foldMarks } from '../../../src/search/language/analyze-in.js';

const shared = (a: readonly string[], b: readonly string[]): string[] => a.filter((term) => b.includes(term));

describe('analysis in a language other than English', () => {
  it.each([
    ['de', 'Haus', 'Häuser'],
    ['de', 'Kind', 'Kinder'],
    ['de', 'Stadt', 'Städte'],
    ['fr', 'cheval', 'chevaux'],
    ['fr', 'maison', 'maisons'],
    ['es', 'libro', 'libros'],
    ['it', 'libro', 'libri'],
    ['nl', 'boek', 'boeken'],
    ['ru', 'книга', 'книги'],
  ])('%s: %s and %s stem to one term', (language, word, inflected) => {
    const [a] = analyze(word, language);
    const [b] = analyze(inflected, language);
    expect(a).toBeDefined();
    expect(a).toBe(b);
    expect(a?.startsWith(`${language}:`)).toBe(true);
  });

  it('stems only in the language it is asked for: English keeps Porter, untagged', () => {
    expect(analyze('Häuser', 'de')).toEqual(['de:haus']);
    expect(analyze('houses')).toEqual(['hous']);
    // English today: an accented word is folded, never stemmed by a German rule.
    expect(analyze('Häuser')).toEqual(['hauser']);
  });

  it('drops the language’s stopwords, not another language’s', () => {
    expect(analyze('die Häuser und die Kinder', 'de')).toEqual(['de:haus', 'de:kind']);
    // "die" is a German article, an English verb.
    expect(analyze('die', 'en')).toEqual(['die']);
    expect(analyze('les chevaux de la ville', 'fr')).toEqual(['fr:cheval', 'fr:vill']);
  });

  it('folds accents where the language allows it, keeps them where a mark makes another letter', () => {
    // German: a query typed without umlauts finds the word with them.
    expect(analyze('Hauser', 'de')).toEqual(analyze('Häuser', 'de'));
    expect(analyze('Müller', 'de')).toEqual(analyze('Muller', 'de'));
    // French: é and e are one letter to a searcher.
    expect(analyze('église', 'fr')).toEqual(analyze('eglise', 'fr'));
    // Swedish: å, ä and ö are letters of their own ("får" sheep, "far" father).
    expect(analyze('får', 'sv')).not.toEqual(analyze('far', 'sv'));
    // Russian ё is written е by most.
    expect(analyze('ёлка', 'ru')).toEqual(analyze('елка', 'ru'));
  });

  it('never folds marks that are parts of letters (Devanagari, kana)', () => {
    expect(foldMarks('किताब')).toBe('किताब');
    expect(foldMarks('がくせい')).toBe('がくせい');
    expect(foldMarks('Häuser')).toBe('Hauser');
  });

  it('a language with no stemmer is still its own: lower case, folded, tagged', () => {
    expect(analyze('Książki', 'pl')).toEqual(['pl:ksiazki']);
  });

  it('a query is analysed once per language, one after another', () => {
    expect(analyzeQuery('Häuser', ['de', 'en'])).toEqual(['de:haus', 'hauser']);
    expect(analyzeQuery('attention layers', ['en'])).toEqual(analyze('attention layers'));
  });
});

describe('unspaced scripts', () => {
  it('研究生 (graduate student) shares only 研究 with 研究生命起源 (research on the origin of life)', () => {
    const query = analyze('研究生', 'zh');
    const origin = analyze('研究生命起源', 'zh');
    const graduate = analyze('研究生的培养方案', 'zh');
    expect(shared(query, origin)).toEqual(['zh:研究']);
    expect(shared(query, graduate)).toEqual(query);
  });

  it('a compound is found from its head word (研究生院 from 研究生) by its character pairs', () => {
    const query = analyze('研究生', 'zh');
    expect(shared(query, analyze('研究生院', 'zh')).length).toBeGreaterThanOrEqual(2);
  });

  it('segments the same whatever the language asked (so a query meets a page of either)', () => {
    const strip = (terms: string[]): string[] => terms.map((term) => term.replace(/^[a-z]+:/, ''));
    // Korean and Vietnamese have no stopword list here: what is left is the segmentation alone.
    expect(strip(analyze('研究生命起源', 'ko'))).toEqual(strip(analyze('研究生命起源', 'vi')));
    expect(strip(analyze('研究生命起源', 'ko'))).toEqual(analyze('研究生命起源'));
    expect(analyze('研究生命起源')).toEqual(['研究', '生命', '起源']);
  });

  it('Thai is cut into words (no pairs: it is alphabetic)', () => {
    const terms = analyze('ภาษาไทยง่ายนิดเดียว', 'th');
    expect(terms.length).toBeGreaterThan(1);
    expect(terms.every((term) => term.startsWith('th:'))).toBe(true);
  });

  it('the token lane cuts the same words, untagged', () => {
    expect(wholeTerms('研究生命起源')).toEqual(['研究', '生命', '起源']);
  });
});
