import { analyzeBoth, analyzeIds } from './analyze.js';
import { documentText, keyWords, type PageDocument } from './document.js';
import { IdEmbeddingInput, type EmbeddingInput } from './embedder.js';
import type { AnalysedFields } from './lexical.js';
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
    analyzeBoth(text, terms, whole);
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
  /** Term ids per lexical field, in LEXICAL_FIELDS order. */
  fields: number[][];
  /** Whole-term ids for the token lane (repeats allowed). */
  whole: number[];
  /** What the semantic lane embeds: the text, and the term ids of title, summary, tags and body. */
  embedding: IdEmbeddingInput;
}

export function analysePageIds(doc: PageDocument, vocabulary: Vocabulary): AnalysedPageIds {
  const whole: number[] = [];
  const field = (text: string): number[] => {
    const ids: number[] = [];
    analyzeIds(text, vocabulary, ids, whole);
    return ids;
  };
  const fields = [field(keyWords(doc.key)), field(doc.title), field(doc.summary), field(doc.tags.join(' ')), field(doc.body)];
  const [, title = [], summary = [], tags = [], body = []] = fields;
  const ids = new Int32Array(title.length + summary.length + tags.length + body.length);
  let at = 0;
  for (const part of [title, summary, tags, body]) {
    ids.set(part, at);
    at += part.length;
  }
  return { fields, whole, embedding: new IdEmbeddingInput(documentText(doc), ids, vocabulary) };
}
