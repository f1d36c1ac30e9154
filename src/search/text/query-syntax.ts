import { analyze, normalise } from './analyze.js';

/**
 * The query syntax of `wiki search`: `"exact phrase"` (pages must hold those words in that
 * order), `-word` and `-"phrase"` (pages holding them are left out); everything else is
 * ranked as before. A quote left open is read as plain text.
 */
export interface ParsedQuery {
  /** What the lanes rank: the plain words and the phrases' words. */
  text: string;
  /** Required phrases, as written. */
  phrases: string[];
  /** Excluded words and phrases, as written. */
  excluded: string[];
}

const PART = /(-?)"([^"]*)"|(\S+)/g;

export function parseQuery(query: string): ParsedQuery {
  const ranked: string[] = [];
  const phrases: string[] = [];
  const excluded: string[] = [];
  for (const match of query.matchAll(PART)) {
    const [, minus, quoted, word] = match;
    if (quoted !== undefined) {
      const phrase = quoted.trim();
      if (!phrase) continue;
      if (minus) excluded.push(phrase);
      else {
        phrases.push(phrase);
        ranked.push(phrase);
      }
    } else if (word !== undefined) {
      // `-word` excludes; a lone `-` or `--` is just text.
      if (/^-[\p{L}\p{N}]/u.test(word)) excluded.push(word.slice(1));
      else ranked.push(word.replace(/"/g, ''));
    }
  }
  return { text: ranked.join(' ').trim(), phrases, excluded };
}

/** True when the query asks more of a page than its ranking does. */
export function hasConstraints(query: ParsedQuery): boolean {
  return query.phrases.length > 0 || query.excluded.length > 0;
}

/** Words only, single-spaced, lower case, with a space at each end: phrases are found on word boundaries. */
function wordsOnly(text: string): string {
  return ` ${normalise(text).replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ').trim()} `;
}

/**
 * A page's searchable text against the query's phrases and exclusions. A phrase matches its
 * words in order, ignoring case and punctuation (`**boundary** layer` holds "boundary
 * layer"); an excluded word matches any form of it (`-transformer` leaves out pages
 * saying "transformers"); an excluded phrase matches as a required one would.
 */
export class QueryFilter {
  private readonly phrases: string[];
  private readonly excludedPhrases: string[];
  private readonly excludedWords: string[];
  /** Language → the excluded words' stems in it, made when a page in that language is first checked. */
  private readonly excludedStems = new Map<string, string[]>();

  constructor(query: ParsedQuery) {
    this.phrases = query.phrases.map(wordsOnly).filter((phrase) => phrase.trim());
    const words = query.excluded.filter((part) => !/\s/.test(part.trim()));
    this.excludedPhrases = query.excluded.filter((part) => /\s/.test(part.trim())).map(wordsOnly);
    this.excludedWords = words;
    // An excluded stopword has no stem: it is matched as a phrase of one word instead.
    for (const word of words) if (analyze(word).length === 0) this.excludedPhrases.push(wordsOnly(word));
  }

  private stemsIn(language: string | undefined): string[] {
    const key = language ?? '';
    let stems = this.excludedStems.get(key);
    if (!stems) {
      stems = this.excludedWords.flatMap((word) => analyze(word, language));
      this.excludedStems.set(key, stems);
    }
    return stems;
  }

  /** `language`: the page's, in which its words and the excluded ones are stemmed. */
  accepts(pageText: string, language?: string): boolean {
    const text = wordsOnly(pageText);
    if (!this.phrases.every((phrase) => text.includes(phrase))) return false;
    if (this.excludedPhrases.some((phrase) => phrase.trim() && text.includes(phrase))) return false;
    const excluded = this.stemsIn(language);
    if (excluded.length === 0) return true;
    const stems = new Set(analyze(pageText, language));
    return !excluded.some((stem) => stems.has(stem));
  }
}

/** How many ranked pages to look through for `limit` that pass a query's phrases and exclusions. */
export function candidatesFor(limit: number): number {
  return Math.max(10 * limit, 200);
}
