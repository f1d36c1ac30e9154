import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GroundingCache, groundPage, type CandidateFact } from '../../src/facts/grounding.js';
import { groundingLanguage, pageLanguage } from '../../src/facts/grounding-language.js';
import { claimTerms } from '../../src/facts/claim-terms.js';
import { segmentText } from '../../src/facts/segment.js';

/**
 * Grounding in a page's language: numbers, dates, negations and sentences read as the
 * language writes them, and the certain/uncertain split kept — a page written well in
 * German or Chinese gets no more warnings than the same page in English, and a changed
 * number or a planted negation is still caught.
 */
const fixture = (name: string): string => readFileSync(new URL(`../fixtures/languages/${name}`, import.meta.url), 'utf8');
const SOURCE = 'raw/solarpark.md';

/** The source's facts as extraction makes them (one a sentence, with its lines) and a reader of its lines. */
function evidence(text: string): { facts: CandidateFact[]; lines: (file: string) => string[] | undefined } {
  const facts = segmentText(text, 'sentence').map((segment, index) => ({ id: `f-${index}`, text: segment.text, source: SOURCE, lineStart: segment.lineStart, lineEnd: segment.lineEnd }));
  const lines = text.split('\n');
  return { facts, lines: (file) => (file === SOURCE ? lines : undefined) };
}

function ground(page: string, source: string, lang: string | undefined) {
  const { facts, lines } = evidence(source);
  return groundPage(page, facts, new GroundingCache(groundingLanguage(lang)), 'Solarpark', lines);
}

const warnings = (grounding: ReturnType<typeof ground>) => grounding.sentences.filter((s) => s.problem?.sure);
const flagged = (grounding: ReturnType<typeof ground>) => grounding.sentences.filter((s) => s.problem);

describe('reading a language (facts/grounding-language.ts)', () => {
  it('reads German numbers and dates as the language writes them', () => {
    const de = groundingLanguage('de');
    const terms = claimTerms(de?.normalise('Am 9. August 2016 lieferte sie 1.000,5 Tonnen, 3,5 % mehr als am 31.12.2015 und im Mai 2014.') ?? '');
    expect(terms.numbers).toEqual(expect.arrayContaining([1000.5, 3.5]));
    expect(terms.numbers).not.toContain(1);
    expect(terms.dates).toEqual(expect.arrayContaining(['2016-08-09', '2015-12-31', '2014-05']));
  });

  it('reads French numbers (a space groups thousands) and dates', () => {
    const fr = groundingLanguage('fr');
    const terms = claimTerms(fr?.normalise('Le 9 août 2016, 1 000,5 tonnes et 1\u202f200 kilos ; le 1er mars 2017.') ?? '');
    expect(terms.numbers).toEqual(expect.arrayContaining([1000.5, 1200]));
    expect(terms.dates).toEqual(expect.arrayContaining(['2016-08-09', '2017-03-01']));
  });

  it('reads Chinese and Japanese numerals and dates, and cuts the text into words', () => {
    const zh = groundingLanguage('zh');
    const terms = claimTerms(zh?.normalise('电站于2016年8月9日投入运行，由三千八百四十块组件组成，每年发电约120万千瓦时，有三个逆变器。') ?? '');
    expect(terms.numbers).toEqual(expect.arrayContaining([3840, 1200000, 3]));
    expect(terms.dates).toContain('2016-08-09');
    expect(terms.words.length).toBeGreaterThan(5);
    // A numeral inside a word is no number: 统一 (unify), 一些 (some), 万一 (in case), 千万 (by all means).
    expect(claimTerms(zh?.normalise('统一的标准和一些规则，万一出错千万不要慌。') ?? '').numbers).toEqual([]);
    const ja = groundingLanguage('ja');
    expect(claimTerms(ja?.normalise('2016年8月に三千件のデータを公開した。') ?? '').dates).toContain('2016-08');
  });

  it('reads each language\'s negations: nicht, kein, nie; ne…pas, jamais; 不, 没有; ない', () => {
    const negated = (lang: string, text: string) => claimTerms(groundingLanguage(lang)?.normalise(text) ?? text).negated;
    expect(negated('de', 'Ein Batteriespeicher ist nicht vorhanden.')).toBe(true);
    expect(negated('de', 'Die Gesellschaft zahlt keine Pacht.')).toBe(true);
    expect(negated('de', 'Der Park wurde nie erweitert.')).toBe(true);
    expect(negated('de', 'Der Park wurde erweitert.')).toBe(false);
    expect(negated('fr', "Le parc n'a pas de batterie.")).toBe(true);
    expect(negated('fr', 'Le parc ne fut jamais agrandi.')).toBe(true);
    expect(negated('fr', 'Le parc a une batterie.')).toBe(false);
    expect(negated('zh', '运营公司不向市镇支付租金。')).toBe(true);
    expect(negated('zh', '电站没有配备电池。')).toBe(true);
    expect(negated('zh', '电站配备了电池。')).toBe(false);
    expect(negated('ja', 'このシステムはキャッシュを使わない。')).toBe(true);
    expect(negated('ja', 'このシステムはキャッシュを使う。')).toBe(false);
  });

  it("takes a page's lang only when its body is written in that language", () => {
    expect(pageLanguage('de', fixture('solarpark-de-page.md'))?.tag).toBe('de');
    expect(pageLanguage('fr', fixture('solarpark-fr-page.md'))?.tag).toBe('fr');
    expect(pageLanguage('zh', fixture('solarpark-zh-page.md'))?.tag).toBe('zh');
    expect(pageLanguage('ja', fixture('solarpark-ja-page.md'))?.tag).toBe('ja');
    for (const lang of ['de', 'fr', 'zh', 'ja']) expect(pageLanguage(lang, fixture('solarpark-en-page.md')), lang).toBeUndefined();
  });

  it('leaves English and a page without lang as they always were', () => {
    expect(groundingLanguage(undefined)).toBeUndefined();
    expect(groundingLanguage('en')).toBeUndefined();
    expect(groundingLanguage('en-GB')).toBeUndefined();
    expect(groundingLanguage(42)).toBeUndefined();
  });
});

describe('splitting sentences in the language (facts/segment.ts)', () => {
  it('ends a sentence at 。！？ with no space after it, and not at a German day\'s full stop', () => {
    expect(segmentText('电站于2016年8月9日投入运行。电站位于萨克森州的矿区上！它有电池吗？', 'sentence').map((s) => s.text)).toEqual([
      '电站于2016年8月9日投入运行。',
      '电站位于萨克森州的矿区上！',
      '它有电池吗？',
    ]);
    expect(segmentText('Der Park wurde am 9. August 2016 eröffnet. Er liegt in Sachsen.', 'sentence').map((s) => s.text)).toEqual([
      'Der Park wurde am 9. August 2016 eröffnet.',
      'Er liegt in Sachsen.',
    ]);
  });
});

/** Per language: the planted changes, each a replacement of the page's text. */
const ATTACKS = {
  de: { number: ['3.840 Modulen', '3.480 Modulen'], date: ['am 9. August 2016', 'am 19. August 2016'], negation: ['Der Park wurde am 9. August 2016 in Betrieb genommen.', 'Der Park wurde am 9. August 2016 nicht in Betrieb genommen.'], negated: /nicht in Betrieb/ },
  zh: { number: ['3840块', '3480块'], date: ['于2016年8月9日', '于2016年8月19日'], negation: ['电站于2016年8月9日投入运行。', '电站于2016年8月9日没有投入运行。'], negated: /没有投入运行/ },
  fr: { number: ['3 840 modules', '3 480 modules'], date: ['le 9 août 2016', 'le 19 août 2016'], negation: ['Le parc a été mis en service le 9 août 2016.', "Le parc n'a pas été mis en service le 9 août 2016."], negated: /n'a pas été/ },
  ja: { number: ['3840枚', '3480枚'], date: ['2016年8月9日に運転', '2016年8月19日に運転'], negation: ['発電所は2016年8月9日に運転を開始した。', '発電所は2016年8月9日に運転を開始しなかった。'], negated: /開始しなかった/ },
} as const;

describe.each([
  ['German', 'de', 'solarpark-de.md', 'solarpark-de-page.md'],
  ['Chinese', 'zh', 'solarpark-zh.md', 'solarpark-zh-page.md'],
  ['French', 'fr', 'solarpark-fr.md', 'solarpark-fr-page.md'],
  ['Japanese', 'ja', 'solarpark-ja.md', 'solarpark-ja-page.md'],
] as const)('a page written well in %s', (_name, lang, sourceFile, pageFile) => {
  const attack = ATTACKS[lang];
  const source = fixture(sourceFile);
  const page = fixture(pageFile);
  const english = ground(fixture('solarpark-en-page.md'), fixture('solarpark-en.md'), undefined);

  it('gets no more warnings than the same page in English (none), and every claim is checked', () => {
    const grounding = ground(page, source, lang);
    expect(grounding.sentences.length).toBe(english.sentences.length);
    expect(warnings(english)).toEqual([]);
    expect(warnings(grounding).map((s) => `${s.text}: ${s.problem?.kind} ${JSON.stringify(s.problem)}`)).toEqual([]);
    expect(flagged(grounding).length).toBeLessThanOrEqual(flagged(english).length + 1);
  });

  it('is read as English would read it only with its lang: without it the page draws false warnings', () => {
    // What the language reading is for: the same page read as English misreads its numbers or dates.
    expect(warnings(ground(page, source, undefined)).length).toBeGreaterThan(0);
  });

  it('a changed number is a warning', () => {
    const changed = page.replace(attack.number[0], attack.number[1]);
    expect(changed).not.toBe(page);
    const grounding = ground(changed, source, lang);
    const problems = warnings(grounding);
    expect(problems.map((s) => s.problem?.kind)).toEqual(['unsupported-number']);
    expect(problems[0]?.problem).toMatchObject({ numbers: ['3480'] });
  });

  it('a changed date is a warning', () => {
    const changed = page.replace(attack.date[0], attack.date[1]);
    expect(changed).not.toBe(page);
    expect(warnings(ground(changed, source, lang)).map((s) => s.problem?.kind)).toEqual(['unsupported-number']);
  });

  it('a planted negation is flagged', () => {
    const negated = page.replace(attack.negation[0], attack.negation[1]);
    expect(negated).not.toBe(page);
    const problems = flagged(ground(negated, source, lang));
    expect(problems.map((s) => s.text)).toEqual([expect.stringMatching(attack.negated)]);
    expect(problems[0]?.problem?.kind).toBe('miscited');
    // As sure as the same planted negation in the English page (a question there too: the split holds).
    const englishNegated = ground(fixture('solarpark-en-page.md').replace('The park was commissioned on 9 August 2016.', 'The park was not commissioned on 9 August 2016.'), fixture('solarpark-en.md'), undefined);
    expect(flagged(englishNegated).map((s) => s.problem?.sure)).toEqual([problems[0]?.problem?.sure]);
  });
});

describe('a German page written from an English source', () => {
  const source = fixture('solarpark-en.md');
  const page = fixture('solarpark-de-page.md');

  it('draws no warning: its words are a translation, so a mismatch of words is a question, never a warning', () => {
    expect(warnings(ground(page, source, 'de'))).toEqual([]);
  });

  it('a changed number is still a warning: numbers and dates are read in each text\'s language', () => {
    const grounding = ground(page.replace('1.000,5 Kilowatt', '1.500,5 Kilowatt'), source, 'de');
    expect(warnings(grounding).map((s) => s.problem)).toEqual([expect.objectContaining({ kind: 'unsupported-number', numbers: ['1500.5'] })]);
  });
});
