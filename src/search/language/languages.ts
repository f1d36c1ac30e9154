import { createRequire } from 'node:module';

/**
 * The languages search analyses in, by the primary subtag of a BCP 47 tag. Stems come from
 * @orama/stemmers (Snowball algorithms, one small module per language) and stopwords from
 * @orama/stopwords; both are loaded only when a page or query in that language is analysed.
 * English keeps the Porter stemmer and stopword list search always had (see analyze.ts).
 */

/** Whether accents and other marks are removed from a term after stemming. */
export type Folding = 'fold' | 'keep';

interface LanguageEntry {
  stemmer?: () => (word: string) => string;
  stopwords?: () => readonly string[];
  /**
   * `fold` where a reader treats a letter with and without its mark as the same letter when
   * searching (German ä/a, French é/e, Greek tonos, Russian ё/е); `keep` where the mark makes
   * another letter of the alphabet (Swedish å/ä/ö, Finnish, Danish, Norwegian, Hungarian,
   * Turkish ı/i, ş/s, Lithuanian, Romanian ș/ț).
   */
  folding: Folding;
}

// Loaded through a require of our own, which the bundler leaves alone: each module is read from
// node_modules the first time its language is met, never at start-up.
const load = createRequire(import.meta.url);
type StemmerModule = { stemmer: (word: string) => string };
type StopwordModule = { stopwords: string[] };
const stem = (load: () => unknown) => () => (load() as StemmerModule).stemmer;
const stops = (load: () => unknown) => () => (load() as StopwordModule).stopwords;

const LANGUAGES: Readonly<Record<string, LanguageEntry>> = {
  ar: { stemmer: stem(() => load('@orama/stemmers/arabic')), stopwords: stops(() => load('@orama/stopwords/arabic')), folding: 'fold' },
  bg: { stemmer: stem(() => load('@orama/stemmers/bulgarian')), stopwords: stops(() => load('@orama/stopwords/bulgarian')), folding: 'fold' },
  da: { stemmer: stem(() => load('@orama/stemmers/danish')), stopwords: stops(() => load('@orama/stopwords/danish')), folding: 'keep' },
  de: { stemmer: stem(() => load('@orama/stemmers/german')), stopwords: stops(() => load('@orama/stopwords/german')), folding: 'fold' },
  // English is stemmed by Porter and its own short stopword list (analyze.ts); this list is the detector's.
  en: { stopwords: stops(() => load('@orama/stopwords/english')), folding: 'fold' },
  el: { stemmer: stem(() => load('@orama/stemmers/greek')), stopwords: stops(() => load('@orama/stopwords/greek')), folding: 'fold' },
  es: { stemmer: stem(() => load('@orama/stemmers/spanish')), stopwords: stops(() => load('@orama/stopwords/spanish')), folding: 'fold' },
  fi: { stemmer: stem(() => load('@orama/stemmers/finnish')), stopwords: stops(() => load('@orama/stopwords/finnish')), folding: 'keep' },
  fr: { stemmer: stem(() => load('@orama/stemmers/french')), stopwords: stops(() => load('@orama/stopwords/french')), folding: 'fold' },
  ga: { stemmer: stem(() => load('@orama/stemmers/irish')), stopwords: stops(() => load('@orama/stopwords/irish')), folding: 'fold' },
  hi: { stemmer: stem(() => load('@orama/stemmers/indian')), stopwords: stops(() => load('@orama/stopwords/indian')), folding: 'keep' },
  hu: { stemmer: stem(() => load('@orama/stemmers/hungarian')), stopwords: stops(() => load('@orama/stopwords/hungarian')), folding: 'keep' },
  hy: { stemmer: stem(() => load('@orama/stemmers/armenian')), stopwords: stops(() => load('@orama/stopwords/armenian')), folding: 'keep' },
  id: { stemmer: stem(() => load('@orama/stemmers/indonesian')), stopwords: stops(() => load('@orama/stopwords/indonesian')), folding: 'fold' },
  it: { stemmer: stem(() => load('@orama/stemmers/italian')), stopwords: stops(() => load('@orama/stopwords/italian')), folding: 'fold' },
  ja: { stopwords: stops(() => load('@orama/stopwords/japanese')), folding: 'keep' },
  lt: { stemmer: stem(() => load('@orama/stemmers/lithuanian')), stopwords: stops(() => load('@orama/stopwords/lithuanian')), folding: 'keep' },
  ne: { stemmer: stem(() => load('@orama/stemmers/nepali')), stopwords: stops(() => load('@orama/stopwords/nepali')), folding: 'keep' },
  nl: { stemmer: stem(() => load('@orama/stemmers/dutch')), stopwords: stops(() => load('@orama/stopwords/dutch')), folding: 'fold' },
  no: { stemmer: stem(() => load('@orama/stemmers/norwegian')), stopwords: stops(() => load('@orama/stopwords/norwegian')), folding: 'keep' },
  pt: { stemmer: stem(() => load('@orama/stemmers/portuguese')), stopwords: stops(() => load('@orama/stopwords/portuguese')), folding: 'fold' },
  ro: { stemmer: stem(() => load('@orama/stemmers/romanian')), stopwords: stops(() => load('@orama/stopwords/romanian')), folding: 'keep' },
  ru: { stemmer: stem(() => load('@orama/stemmers/russian')), stopwords: stops(() => load('@orama/stopwords/russian')), folding: 'fold' },
  sa: { stemmer: stem(() => load('@orama/stemmers/sanskrit')), stopwords: stops(() => load('@orama/stopwords/sanskrit')), folding: 'keep' },
  sr: { stemmer: stem(() => load('@orama/stemmers/serbian')), stopwords: stops(() => load('@orama/stopwords/serbian')), folding: 'keep' },
  sv: { stemmer: stem(() => load('@orama/stemmers/swedish')), stopwords: stops(() => load('@orama/stopwords/swedish')), folding: 'keep' },
  ta: { stemmer: stem(() => load('@orama/stemmers/tamil')), stopwords: stops(() => load('@orama/stopwords/tamil')), folding: 'keep' },
  tr: { stemmer: stem(() => load('@orama/stemmers/turkish')), stopwords: stops(() => load('@orama/stopwords/turkish')), folding: 'keep' },
  uk: { stemmer: stem(() => load('@orama/stemmers/ukrainian')), stopwords: stops(() => load('@orama/stopwords/ukrainian')), folding: 'fold' },
  zh: { stopwords: stops(() => load('@orama/stopwords/mandarin')), folding: 'keep' },
};

/** Tags whose primary subtag names a language the table knows under another code. */
const ALIASES: Readonly<Record<string, string>> = { nb: 'no', nn: 'no', cmn: 'zh', yue: 'zh', iw: 'he', in: 'id' };

export const ENGLISH = 'en';

/**
 * The language code search analyses a text tagged `tag` in: the BCP 47 primary subtag, lower
 * case (`pt-BR` → `pt`, `zh-Hant` → `zh`), or undefined for a value that is no such tag. A
 * language the table does not hold (Polish, Korean, Vietnamese…) is still its own language:
 * its words are lower-cased, segmented and folded, never stemmed.
 */
export function languageOf(tag: unknown): string | undefined {
  if (typeof tag !== 'string') return undefined;
  const match = /^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*\s*$/.exec(tag);
  if (!match) return undefined;
  const primary = match[1]!.toLowerCase();
  return ALIASES[primary] ?? primary;
}

/** The languages @orama/stemmers stems (English is stemmed by Porter's algorithm). */
export const STEMMED_LANGUAGES: readonly string[] = [ENGLISH, ...Object.keys(LANGUAGES).filter((code) => LANGUAGES[code]!.stemmer)];

export function foldingOf(language: string): Folding {
  return LANGUAGES[language]?.folding ?? 'fold';
}

const stemmers = new Map<string, ((word: string) => string) | null>();
const stopwordSets = new Map<string, ReadonlySet<string>>();

/** The stemmer of `language`, or undefined when none is known (never English: see analyze.ts). */
export function stemmerOf(language: string): ((word: string) => string) | undefined {
  let found = stemmers.get(language);
  if (found === undefined) {
    found = LANGUAGES[language]?.stemmer?.() ?? null;
    stemmers.set(language, found);
  }
  return found ?? undefined;
}

const NO_STOPWORDS: ReadonlySet<string> = new Set();

/** The stopwords of `language`, lower case; empty when none are known. */
export function stopwordsOf(language: string): ReadonlySet<string> {
  let found = stopwordSets.get(language);
  if (!found) {
    const list = LANGUAGES[language]?.stopwords?.();
    found = list ? new Set(list.map((word) => word.normalize('NFKC').toLowerCase())) : NO_STOPWORDS;
    stopwordSets.set(language, found);
  }
  return found;
}

const foldedSets = new Map<string, ReadonlySet<string>>();

/** The stopwords of `language` with their accents removed, as the token lane's whole terms have them. */
export function foldedStopwordsOf(language: string): ReadonlySet<string> {
  let found = foldedSets.get(language);
  if (!found) {
    found = new Set([...stopwordsOf(language)].map((word) => (/[\u00c0-\u024f\u1e00-\u1eff]/.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '') : word)));
    foldedSets.set(language, found);
  }
  return found;
}

/** Whether `language` has a stopword list (the detector compares only these). */
export function hasStopwords(language: string): boolean {
  return LANGUAGES[language]?.stopwords !== undefined;
}
