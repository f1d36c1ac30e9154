import { analyze } from '../../search/text/analyze.js';
import { ENGLISH } from '../../search/language/languages.js';
import { MAX_LEXEME_BYTES, tsvectorTerms } from './tsvector-limit.js';

/** A fact as the database's full-text index holds it: its distinct terms, each term's count, and its length in terms. */
export interface FactTerms {
  terms: string[];
  counts: Record<string, number>;
  length: number;
}

/**
 * A fact's terms in the language of the source stating it, by search's own analysers
 * (stemmed, folded, CJK segmented; a term of another language than English carries its
 * language, `de:haus`), so a fact matches only a query analysed in its own language.
 */
export function factTerms(text: string, language: string): FactTerms {
  const counts: Record<string, number> = {};
  let analysed = 0;
  for (const term of analyze(text, language)) {
    if (term === '' || Buffer.byteLength(term) >= MAX_LEXEME_BYTES) continue;
    counts[term] = (counts[term] ?? 0) + 1;
    analysed++;
  }
  // The length FTS5 gives the fact in `.wiki/facts.db`: every word of English text as written (stopwords too), the analysed terms of another language.
  const length = language === ENGLISH ? (text.match(WORD) ?? []).length : analysed;
  const terms = tsvectorTerms(Object.keys(counts));
  // Counts of the terms the tsvector holds only, so a term's facts are the same to `@@` and to BM25.
  return { terms, counts: terms.length === Object.keys(counts).length ? counts : Object.fromEntries(terms.map((term) => [term, counts[term]!])), length };
}

/** A word as FTS5's unicode61 tokenizer splits English text. */
const WORD = /[\p{L}\p{N}]+/gu;

/** A query's distinct terms: analysed in English and in each other language the database holds facts in. */
export function factQueryTerms(query: string, languages: readonly string[]): string[] {
  const terms = new Set<string>();
  for (const language of [ENGLISH, ...languages.filter((l) => l !== ENGLISH)]) for (const term of analyze(query, language)) terms.add(term);
  return [...terms].filter((term) => term !== '' && Buffer.byteLength(term) < MAX_LEXEME_BYTES);
}

/** FTS5's BM25 constants, so the database ranks facts as `.wiki/facts.db` does. */
const K1 = 1.2;
const B = 0.75;

/**
 * BM25 as SQLite's FTS5 computes it (k1 1.2, b 0.75, idf ln((N − n + ½)/(n + ½)), a
 * non-positive idf taken as 1e-6), over `candidates` — every live fact holding a query
 * term, so a term's `n` is counted among them — of `total` live facts averaging
 * `averageLength` terms.
 */
export function bm25Scores(candidates: ReadonlyArray<{ counts: Record<string, number>; length: number }>, terms: readonly string[], total: number, averageLength: number): number[] {
  const scores = candidates.map(() => 0);
  for (const term of terms) {
    const holders = candidates.flatMap((candidate, index) => ((candidate.counts[term] ?? 0) > 0 ? [index] : []));
    if (holders.length === 0) continue;
    const raw = Math.log((total - holders.length + 0.5) / (holders.length + 0.5));
    const idf = raw > 0 ? raw : 1e-6;
    for (const index of holders) {
      const { counts, length } = candidates[index]!;
      const tf = counts[term]!;
      scores[index]! += (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * length) / (averageLength || 1)));
    }
  }
  return scores;
}
