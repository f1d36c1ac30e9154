import type { Claim } from './claims.js';
import { isOrdinaryEnglish } from './english-words.js';
import { plainMath, withoutMath } from './math-text.js';
import { holdsMisspelled } from './misspelling.js';
import { wordStem } from './word-stem.js';

/**
 * The names a claim uses that its sources never mention, as the page writes them: what the
 * grounding check is sure of without reading the claim's meaning. Capitalised words are
 * checked by the check itself (their stems); this module adds what a stem cannot tell — an
 * identifier or tool name (`no_type_check`, `typing.Protocol`, `HashMap`, anything in code
 * spans) and a lower-case word that is in no source and not ordinary English ("javac" put
 * where the sources say "mypy") — and quotes names as written ("Grace Hopper", not "grace,
 * hopper").
 */

/** What the sources write, lower-cased: words, identifiers whole and their parts. */
export type Mentions = (token: string) => boolean;

/** Runs of letters, digits and underscores, joined by dots ("typing.Protocol", "Ferrite.jl", "go.sum"). */
const TOKEN = /[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)*/gu;
/** Abbreviations that look like dotted identifiers. */
const ABBREVIATION = /^(?:e\.g|i\.e|et\.al|vs|cf|etc|a\.k\.a)$/i;
/** A word shorter than this names nothing checkable ("go", "fn"). */
const SHORTEST = 3;
/** Lower to upper inside a word ("HashMap", "iPhone", "toString"). */
const CAMEL = /\p{Ll}\p{Lu}/u;
const CAPITALISED = /^\p{Lu}/u;

/** Every token of `text`, lower-cased, whole and split at dots and underscores. */
export function addTokens(text: string, into: Set<string>): void {
  for (const match of plainMath(text).matchAll(TOKEN)) {
    const token = match[0].toLowerCase();
    into.add(token);
    if (/[._]/.test(token)) for (const part of token.split(/[._]+/)) if (part) into.add(part);
  }
}

/** Tokens of many texts, kept per array of facts and per file for one lint. */
export class MentionIndex {
  private readonly ofFacts = new WeakMap<readonly { text: string }[], Set<string>>();
  private readonly ofFiles = new Map<string, Set<string> | undefined>();

  /** Whether the facts or any of `files` (read through `read`) write `token`. */
  mentions(facts: readonly { text: string }[], files: Iterable<string>, read: ((file: string) => readonly string[] | undefined) | undefined): Mentions {
    let factTokens = this.ofFacts.get(facts);
    if (!factTokens) {
      factTokens = new Set();
      for (const fact of facts) addTokens(fact.text, factTokens);
      this.ofFacts.set(facts, factTokens);
    }
    const fileTokens: Set<string>[] = [];
    for (const file of new Set(files)) {
      if (!this.ofFiles.has(file)) {
        const lines = read?.(file);
        let tokens: Set<string> | undefined;
        if (lines) {
          tokens = new Set();
          for (const line of lines) addTokens(line, tokens);
        }
        this.ofFiles.set(file, tokens);
      }
      const tokens = this.ofFiles.get(file);
      if (tokens) fileTokens.push(tokens);
    }
    const all = [factTokens, ...fileTokens];
    return (token) => all.some((set) => set.has(token));
  }
}

/**
 * The identifiers and rare words of a claim its sources never mention, as written. `words`:
 * the stems its sources hold (a lower-case word its sources write inflected otherwise is
 * mentioned); `topic`: stems of the page's title, which name the page's subject;
 * `rareWords`: whether a lower-case word that is not ordinary English counts (not in another language).
 */
export function unmentionedTerms(
  claim: Pick<Claim, 'checked' | 'code'>,
  mentions: Mentions,
  words: ReadonlySet<string>,
  topic: ReadonlySet<string>,
  misspelled: (stem: string) => boolean = (stem) => holdsMisspelled(words, stem),
  rareWords = true,
): string[] {
  const found: string[] = [];
  const note = (token: string): void => {
    if (!found.includes(token)) found.push(token);
  };
  for (const [text, inCode] of [[claim.checked, false], ...claim.code.map((code) => [code, true] as const)] as const) {
    for (const match of plainMath(withoutMath(text)).matchAll(TOKEN)) {
      const token = match[0].replace(/^_+|_+$/g, '');
      if (token.length < SHORTEST || !/\p{L}/u.test(token) || ABBREVIATION.test(token)) continue;
      const lower = token.toLowerCase();
      if (mentions(lower) || topic.has(wordStem(lower))) continue;
      const identifier = /[._\d]/.test(token) || CAMEL.test(token);
      if (identifier) {
        // A dotted name whose every part the sources write combines what they say ("typing.Protocol" where they
        // import Protocol from typing); a snake_case or CamelCase name is one name, mentioned whole or not at all.
        const parts = lower.split('.').filter(Boolean);
        if (parts.length > 1 && parts.every((part) => mentions(part))) continue;
        // A number-like token ("1.13", "v2") is a version, which the number check reads.
        if (/^v?\d/.test(lower)) continue;
        // A CamelCase name one letter off one its sources write is their typo corrected ("ReplicasSets"), not another name.
        if (!inCode && CAMEL.test(token) && misspelled(wordStem(lower))) continue;
        note(token);
        continue;
      }
      // A capitalised word in prose is a name the check reads by its stem; in code it is an identifier.
      if (CAPITALISED.test(token) && !inCode) continue;
      // A word that is not ordinary English is rare only in an English page.
      if (!rareWords && !inCode) continue;
      // Its own stem, not one it begins or that begins it: "javac" is not "java".
      if (words.has(wordStem(lower)) || isOrdinaryEnglish(lower)) continue;
      note(token);
    }
  }
  return found;
}

/**
 * The words of `text` whose stems are `stems`, as written, consecutive ones joined
 * ("Grace Hopper"): what a finding quotes. A stem no word of the text has is quoted as it is.
 */
export function wordsAsWritten(text: string, stems: readonly string[]): string[] {
  const wanted = new Set(stems);
  const runs: string[] = [];
  const seen = new Set<string>();
  let run: string[] = [];
  let end = -1;
  const flush = (): void => {
    if (run.length > 0) runs.push(run.join(' '));
    run = [];
  };
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const stem = wordStem(match[0].toLowerCase());
    if (!wanted.has(stem)) {
      flush();
      continue;
    }
    if (run.length > 0 && !/^\s+$/.test(text.slice(end, match.index))) flush();
    run.push(match[0]);
    seen.add(stem);
    end = match.index + match[0].length;
  }
  flush();
  return [...new Set([...runs, ...stems.filter((stem) => !seen.has(stem))])];
}

/** `"a", "b" and "c"`. */
export function quoteList(items: readonly string[]): string {
  const quoted = items.map((item) => `"${item}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** Words that open a description of a name ("the finite element package Ferrite.jl"). */
const DETERMINERS = new Set(['the', 'a', 'an', 'its', 'their']);
/** Content words a description must have to add something ("the package Ferrite.jl" only names it). */
const DESCRIPTION_WORDS = 2;
const DESCRIPTION_MOST = 4;

/**
 * A description the claim gives a name its evidence mentions, none of whose words the evidence
 * holds: "the finite element package Ferrite.jl" where the cited lines only use Ferrite.jl, or
 * "Ferrite.jl, a finite element package,". What a thing is, from outside the source — a
 * question for a reader, not a certainty. `held`: whether the evidence holds a word (a stem).
 */
export function addedDescription(text: string, held: (stem: string) => boolean, isStop: (word: string) => boolean): { name: string; description: string } | undefined {
  const tokens = [...text.matchAll(/[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)*|[,;:()]/gu)].map((m) => m[0]);
  const isName = (token: string, index: number): boolean => index > 0 && (CAPITALISED.test(token) || /\./.test(token) || CAMEL.test(token)) && /\p{L}/u.test(token) && held(wordStem(token.toLowerCase().split('.')[0] ?? ''));
  const description = (words: readonly string[]): string | undefined => {
    // A run of content words only, as a noun phrase is ("finite element package"); a function word makes it a clause.
    if (words.length < DESCRIPTION_WORDS || words.length > DESCRIPTION_MOST || words.some((word) => !/^\p{Ll}+$/u.test(word) || isStop(word))) return undefined;
    return words.some((word) => held(wordStem(word))) ? undefined : words.join(' ');
  };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] ?? '';
    if (!isName(token, index)) continue;
    // Before it, back to a determiner: "the finite element package Ferrite.jl".
    let start = index;
    while (start > 0 && /^\p{Ll}+$/u.test(tokens[start - 1] ?? '') && !DETERMINERS.has(tokens[start - 1] ?? '')) start--;
    if (start > 0 && DETERMINERS.has(tokens[start - 1] ?? '')) {
      const found = description(tokens.slice(start, index));
      if (found) return { name: token, description: found };
    }
    // After it, between commas: "Ferrite.jl, a finite element package,".
    if (tokens[index + 1] === ',' && DETERMINERS.has(tokens[index + 2] ?? '')) {
      const end = tokens.indexOf(',', index + 3);
      const found = end > 0 ? description(tokens.slice(index + 3, end)) : undefined;
      if (found) return { name: token, description: found };
    }
  }
  return undefined;
}

/** The abbreviations in `texts`, lower-cased: all-capital tokens of two to four letters ("MN", "MIT") and short capitalised words with a full stop ("Appx."). */
export function abbreviationsIn(texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/\b\p{Lu}{2,4}\b/gu)) found.add(match[0].toLowerCase());
    // A capitalised short word with a full stop ("Appx." for "Appendix").
    for (const match of text.matchAll(/\b(\p{Lu}\p{Ll}{1,4})\./gu)) found.add((match[1] ?? '').toLowerCase());
  }
  return [...found];
}

/** Whether `short` ("mn") abbreviates the word `name` ("minnesota"): its first letter, then its other letters in order. */
export function abbreviates(short: string, name: string): boolean {
  if (short[0] !== name[0] || name.length <= short.length) return false;
  let at = 1;
  for (const letter of short.slice(1)) {
    at = name.indexOf(letter, at) + 1;
    if (at === 0) return false;
  }
  return true;
}
