import { stemmer } from 'stemmer';
import { ENGLISH_STOPWORDS } from '../../src/search/text/stopwords.js';
import type { CollectionDoc } from './collection.js';

/**
 * The plain BM25 the eval compares against, kept deliberately simple and separate from
 * the product: lowercase, split on non-alphanumerics, a short English stopword list,
 * title + text as one field, k1 = 1.2, b = 0.75; with or without Porter stemming (the
 * stemmed one is the baseline IR papers start from, and the one the targets are set against).
 */
export function baselineTerms(text: string, stemmed = false): string[] {
  const terms = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((term) => term && !ENGLISH_STOPWORDS.has(term));
  return stemmed ? terms.map((term) => stemmer(term)) : terms;
}

export class Bm25Baseline {
  private readonly postings = new Map<string, Array<{ doc: number; tf: number }>>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private readonly avgLength: number;

  /** `analyser`: a text's terms, for a collection in another language (default: `baselineTerms`, stemmed or not). */
  private readonly terms: (text: string) => string[];

  constructor(
    docs: readonly CollectionDoc[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
    stemmed = false,
    analyser?: (text: string) => string[],
  ) {
    this.terms = analyser ?? ((text) => baselineTerms(text, stemmed));
    docs.forEach((doc, i) => {
      const terms = this.terms(`${doc.title} ${doc.text}`);
      this.ids.push(doc.id);
      this.lengths.push(terms.length);
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, tf] of counts) {
        let list = this.postings.get(term);
        if (!list) {
          list = [];
          this.postings.set(term, list);
        }
        list.push({ doc: i, tf });
      }
    });
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  search(query: string, limit: number): string[] {
    const n = this.ids.length;
    const scores = new Map<number, number>();
    for (const term of this.terms(query)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = tf + this.k1 * (1 - this.b + (this.b * (this.lengths[doc] ?? 0)) / this.avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / norm);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([doc]) => this.ids[doc] ?? '');
  }
}
