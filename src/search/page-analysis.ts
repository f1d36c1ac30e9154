import { analyze, wholeTerms } from './analyze.js';
import { documentText, keyWords, type PageDocument } from './document.js';
import type { EmbeddingInput } from './embedder.js';
import type { AnalysedFields } from './lexical.js';

/** A page analysed once for every lane. */
export interface AnalysedPage {
  fields: AnalysedFields;
  /** Distinct whole terms for the token lane. */
  whole: string[];
  /** What the semantic lane embeds. */
  embedding: EmbeddingInput;
}

export function analysePage(doc: PageDocument): AnalysedPage {
  const fields: AnalysedFields = {
    key: analyze(keyWords(doc.key)),
    title: analyze(doc.title),
    summary: analyze(doc.summary),
    tags: analyze(doc.tags.join(' ')),
    body: analyze(doc.body),
  };
  const text = documentText(doc);
  return {
    fields,
    whole: [...new Set(wholeTerms(text))],
    embedding: { text, terms: [...fields.title, ...fields.summary, ...fields.tags, ...fields.body] },
  };
}
