import { describe, expect, it } from 'vitest';
import { languageOf, STEMMED_LANGUAGES, stemmerOf, stopwordsOf } from '../../../src/search/language/languages.js';
import { analyze } from '../../../src/search/text/analyze.js';

describe('languageOf (a BCP 47 tag → the language search analyses in)', () => {
  it.each([
    ['de', 'de'],
    ['DE', 'de'],
    ['pt-BR', 'pt'],
    ['zh-Hant-TW', 'zh'],
    ['en_GB', 'en'],
    ['nb', 'no'],
    ['cmn', 'zh'],
    [' fr ', 'fr'],
  ])('%j → %s', (tag, code) => {
    expect(languageOf(tag)).toBe(code);
  });

  it.each([['german'], [''], ['d'], ['de:x'], ['../de'], ['de-'], [42], [null], [['de']], ['x'.repeat(10_000)]])('refuses %j (then the page’s language is detected)', (tag) => {
    expect(languageOf(tag)).toBeUndefined();
  });
});

describe('the stemming library', () => {
  it('loads a stemmer and a stopword list for every language it is said to stem', () => {
    expect(STEMMED_LANGUAGES.length).toBeGreaterThanOrEqual(25);
    for (const language of STEMMED_LANGUAGES) {
      if (language === 'en') continue;
      const stem = stemmerOf(language);
      expect(stem, language).toBeTypeOf('function');
      expect(stem?.('test'), language).toBeTypeOf('string');
      expect(stopwordsOf(language).size, language).toBeGreaterThan(0);
      expect(() => analyze('Ein kleiner Text, 42 Wörter.', language), language).not.toThrow();
    }
  });

  it('knows no stemmer for a language it does not stem, and analyses it anyway', () => {
    expect(stemmerOf('pl')).toBeUndefined();
    expect(stemmerOf('en')).toBeUndefined();
    expect(analyze('Dom i domy', 'pl')).toEqual(['pl:dom', 'pl:domy']);
  });
});
