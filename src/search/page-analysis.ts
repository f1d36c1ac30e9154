import { analyzeBoth } from './analyze.js';
import { documentText, keyWords, type PageDocument } from './document.js';
import type { EmbeddingInput } from './embedder.js';
import type { AnalysedFields } from './lexical.js';

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
