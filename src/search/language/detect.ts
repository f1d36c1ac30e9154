import { ENGLISH, hasStopwords, stopwordsOf } from './languages.js';

/**
 * A page's language when it does not say (no frontmatter `lang`): by script first, then,
 * among the languages sharing a script, by which language's stopwords its words are.
 * Undefined when the text does not tell (too few words, no language ahead): the caller then
 * uses the wiki's language, else English. Never asked of a query: a query of two words
 * cannot tell, so a query is analysed in every language the wiki holds.
 */

/** How much of a page is read to tell its language. */
export const SAMPLE_CHARS = 1500;
/** Of which the first this many characters are read for stopwords. */
const STOPWORD_SAMPLE_CHARS = 1200;
/** A language must count at least this many stopwords, and this many times the next one's. */
const MIN_STOPWORDS = 3;
const LEAD = 1.5;
/** One character of these scripts is about as telling as a short Latin word. */
const IDEOGRAPH_WEIGHT = 3;

type Script = 'latin' | 'han' | 'kana' | 'hangul' | 'cyrillic' | 'greek' | 'arabic' | 'devanagari' | 'tamil' | 'armenian' | 'thai' | 'hebrew';

const SCRIPTS: ReadonlyArray<[Script, RegExp]> = [
  ['latin', /\p{Script=Latin}/u],
  ['han', /\p{Script=Han}/u],
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['tamil', /\p{Script=Tamil}/u],
  ['armenian', /\p{Script=Armenian}/u],
  ['thai', /\p{Script=Thai}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
];

/** Languages told apart by stopwords within a script; the first is the default of a script other than Latin. */
const BY_STOPWORDS: Partial<Record<Script, readonly string[]>> = {
  latin: [ENGLISH, 'de', 'fr', 'es', 'it', 'pt', 'nl', 'da', 'sv', 'no', 'fi', 'hu', 'id', 'ga', 'lt', 'ro', 'tr'],
  cyrillic: ['ru', 'uk', 'bg', 'sr'],
  devanagari: ['hi', 'ne'],
};

const SINGLE: Partial<Record<Script, string>> = { greek: 'el', arabic: 'ar', tamil: 'ta', armenian: 'hy', thai: 'th', hebrew: 'he', hangul: 'ko' };

const LETTER = /\p{L}/u;
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)?/gu;
/** WORD for ASCII text, without Unicode classes (most pages: detection runs on every page of a build). */
const ASCII_WORD = /[a-z]+(?:'[a-z]+)?/g;

export function detectLanguage(text: string): string | undefined {
  const sample = text.slice(0, SAMPLE_CHARS);
  const script = dominantScript(sample);
  if (!script) return undefined;
  if (script === 'han' || script === 'kana') return /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sample) ? 'ja' : 'zh';
  const single = SINGLE[script];
  if (single) return single;
  const candidates = BY_STOPWORDS[script];
  if (!candidates) return undefined;
  // Latin text that does not tell stays undecided (English, or the wiki's language); another
  // script's text is at least in that script's main language.
  return byStopwords(sample, script, candidates) ?? (script === 'latin' ? undefined : candidates[0]);
}

const ASCII = /^[\x00-\x7f]*$/;

function dominantScript(sample: string): Script | undefined {
  if (ASCII.test(sample)) return /[A-Za-z]/.test(sample) ? 'latin' : undefined;
  const counts = new Map<Script, number>();
  let asciiLetters = 0;
  for (const char of sample) {
    const code = char.charCodeAt(0);
    if (code < 128) {
      // Most of most pages: counted without a regular expression.
      if ((code | 32) >= 97 && (code | 32) <= 122) asciiLetters++;
      continue;
    }
    if (!LETTER.test(char)) continue;
    for (const [script, pattern] of SCRIPTS) {
      if (!pattern.test(char)) continue;
      const weight = script === 'han' || script === 'kana' || script === 'hangul' ? IDEOGRAPH_WEIGHT : 1;
      counts.set(script, (counts.get(script) ?? 0) + weight);
      break;
    }
  }
  counts.set('latin', (counts.get('latin') ?? 0) + asciiLetters);
  let best: Script | undefined;
  let most = 0;
  for (const [script, count] of counts) {
    if (count > most) [best, most] = [script, count];
  }
  // Japanese mixes kana into Han text: the pair is one writing system.
  if ((best === 'han' || best === 'kana') && (counts.get('kana') ?? 0) > 0) return 'kana';
  return best;
}

/**
 * The candidate whose stopwords the sample's words are most often, when it counts enough
 * of them and leads the next candidate clearly; else undefined (so a page of names and
 * numbers stays undecided). A stopword several candidates share counts for each by its
 * share ("die" is German and Dutch: half to each), so close languages are told apart by
 * the words only one of them has.
 */
function byStopwords(sample: string, script: Script, candidates: readonly string[]): string | undefined {
  const owners = stopwordOwners(script, candidates);
  const scores = new Map<string, { hits: number; weight: number }>();
  const text = sample.slice(0, STOPWORD_SAMPLE_CHARS);
  const words = ASCII.test(text) ? text.toLowerCase().match(ASCII_WORD) : text.normalize('NFKC').toLowerCase().match(WORD);
  for (const word of words ?? []) {
    // A single Latin letter is a stopword in many lists (Spanish "e", "a") and an initial or a variable in any text.
    if (word.length < 2 && script === 'latin') continue;
    const languages = owners.get(word);
    if (!languages) continue;
    for (const language of languages) {
      const score = scores.get(language) ?? { hits: 0, weight: 0 };
      score.hits++;
      score.weight += 1 / languages.length;
      scores.set(language, score);
    }
  }
  const [first, second] = [...scores].sort((a, b) => b[1].weight - a[1].weight);
  if (!first || first[1].hits < MIN_STOPWORDS) return undefined;
  if (second && first[1].weight < LEAD * second[1].weight) return undefined;
  return first[0];
}

const owners = new Map<Script, Map<string, string[]>>();

/** Stopword → the candidates whose stopword it is: one lookup per word of a page. */
function stopwordOwners(script: Script, candidates: readonly string[]): Map<string, string[]> {
  let table = owners.get(script);
  if (!table) {
    table = new Map();
    for (const language of candidates.filter(hasStopwords)) {
      for (const word of stopwordsOf(language)) {
        const list = table.get(word);
        if (list) list.push(language);
        else table.set(word, [language]);
      }
    }
    owners.set(script, table);
  }
  return table;
}
