import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../util/package-root.js';

/**
 * Ordinary English, for the grounding check: a lower-case word its sources never use is a
 * name the check is sure of ("javac" where the sources say "mypy") only when it is not an
 * English word. The list is `data/english-words.txt` (about 274,000 lower-case words with
 * their inflections, from the MIT-licensed npm package `word-list` 4.1.0; its licence is
 * `data/english-words.LICENSE`), read once, when a claim first has such a word.
 */

let words: ReadonlySet<string> | undefined;

/** The path of the list, for a test that it ships. */
export function englishWordsFile(): string {
  return path.join(packageRoot(), 'data', 'english-words.txt');
}

function list(): ReadonlySet<string> {
  words ??= new Set(readFileSync(englishWordsFile(), 'utf8').split('\n'));
  return words;
}

/** Suffixes a word may carry beyond its listed form ("preempted", "customizable" from "customize", "canonicalize" from "canonical"). */
const SUFFIXES = ['s', 'es', 'ed', 'd', 'ing', 'er', 'ers', 'ly', 'able', 'ably', 'ability', 'ize', 'izes', 'ized', 'izing', 'ization', 'ness', 'ment', 'ments'];
/** Each part of a closed compound ("runtime", "namespace", "typechecker") is at least this long. */
const COMPOUND_PART = 3;

/** Prefixes that make a word of an English word ("uncaptured", "multi-line", "non-blank"), and stand before a hyphen alone. */
const PREFIXES = ['un', 'non', 're', 'pre', 'post', 'de', 'dis', 'mis', 'sub', 'super', 'over', 'under', 'multi', 'semi', 'anti', 'inter', 'intra', 'co', 'counter', 'meta', 'pseudo', 'quasi', 'self', 'cross', 'auto', 'mid'];
/** British spellings the list (American) has in -ize ("customisable", "canonicalises"). */
const BRITISH_ISE = /is(e|ed|es|ing|ation|ations|able|er|ers)$/;

/** Whether `word` (any case) is an English word: listed, listed less an inflection or an English prefix, spelled the British way, or two listed words run together. */
export function isOrdinaryEnglish(word: string): boolean {
  const lower = word.toLowerCase();
  if (!/^[a-z]+$/.test(lower)) return false;
  const known = list();
  const listed = (w: string): boolean =>
    known.has(w) || SUFFIXES.some((suffix) => w.length > suffix.length + 2 && w.endsWith(suffix) && (known.has(w.slice(0, -suffix.length)) || known.has(`${w.slice(0, -suffix.length)}e`)));
  if (listed(lower) || PREFIXES.includes(lower)) return true;
  if (BRITISH_ISE.test(lower) && listed(lower.replace(BRITISH_ISE, 'iz$1'))) return true;
  if (PREFIXES.some((prefix) => lower.length > prefix.length + 2 && lower.startsWith(prefix) && listed(lower.slice(prefix.length)))) return true;
  for (let at = COMPOUND_PART; at <= lower.length - COMPOUND_PART; at++) {
    if (known.has(lower.slice(0, at)) && listed(lower.slice(at))) return true;
  }
  return false;
}
