import { analyzeBoth, analyzeIds } from './analyze.js';
import { documentText, keyWords, type PageDocument } from './document.js';
import { IdEmbeddingInput, type EmbeddingInput } from '../lanes/semantic/embedder.js';
import type { AnalysedFields } from '../lanes/lexical/lexical.js';
import type { Vocabulary } from './vocabulary.js';

/** A page analysed once for every lane. */
export interface AnalysedPage {
  fields: AnalysedFields;
  /** Distinct whole terms for the token lane. */
  whole: ReadonlySet<string>;
  /** What the semantic lane embeds. */
  embedding: EmbeddingInput;
}

/**
 * Each field is read once for both vocabularies: the stemmed terms (lexical and built-in
 * semantic lanes) and the whole terms (token lane). The whole terms of the fields together
 * are those of `documentText`, which joins the same fields with line breaks.
 */
export function analysePage(doc: PageDocument): AnalysedPage {
  const whole: string[] = [];
  const field = (text: string): string[] => {
    const terms: string[] = [];
    analyzeBoth(text, terms, whole, doc.lang);
    return terms;
  };
  const fields: AnalysedFields = {
    key: field(keyWords(doc.key)),
    title: field(doc.title),
    summary: field(doc.summary),
    tags: field(doc.tags.join(' ')),
    body: field(doc.body),
  };
  return {
    fields,
    whole: new Set(whole),
    embedding: { text: documentText(doc), terms: [...fields.title, ...fields.summary, ...fields.tags, ...fields.body] },
  };
}

/** A page analysed for a bulk build: the same terms as `analysePage`, as vocabulary ids. */
export interface AnalysedPageIds {
  /** Term ids of the lexical fields one after another, in LEXICAL_FIELDS order. */
  terms: Int32Array;
  /** Where each field's ids end in `terms`. */
  fieldEnds: readonly number[];
  /** Whole-term ids for the token lane (repeats allowed). */
  whole: Int32Array;
  /** What the semantic lane embeds: the text, and the term ids of title, summary, tags and body. */
  embedding: IdEmbeddingInput;
}

// Reused between pages: only compact typed arrays outlive the analysis of a page, which
// keeps a 10k-page build from copying millions of short-lived array slots between GCs.
const scratchTerms: number[] = [];
const scratchWhole: number[] = [];

/** `withText` false leaves the embedding's text empty, for embedders that read terms only. */
export function analysePageIds(doc: PageDocument, vocabulary: Vocabulary, withText = true): AnalysedPageIds {
  scratchTerms.length = 0;
  scratchWhole.length = 0;
  const fieldEnds: number[] = [];
  for (const text of [keyWords(doc.key), doc.title, doc.summary, doc.tags.join(' '), doc.body]) {
    analyzeIds(text, vocabulary, scratchTerms, scratchWhole, doc.lang);
    fieldEnds.push(scratchTerms.length);
  }
  const terms = new Int32Array(scratchTerms);
  const whole = new Int32Array(scratchWhole);
  // Title, summary, tags and body follow the key: the semantic lane's terms are one span.
  const embedded = terms.subarray(fieldEnds[0] ?? 0);
  return { terms, fieldEnds, whole, embedding: new IdEmbeddingInput(withText ? documentText(doc) : '', embedded, vocabulary) };
}
