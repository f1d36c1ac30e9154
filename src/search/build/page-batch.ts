import { documentText, pageDocument, type PageDocument } from '../text/document.js';
import { analysePageIds } from '../text/page-analysis.js';
import { readPage } from '../../wiki/page-read.js';
import { Vocabulary } from '../text/vocabulary.js';

/**
 * A run of pages read and analysed away from the index (on a build worker), packed into
 * a few typed arrays so it crosses threads as a handful of buffers instead of thousands of
 * objects. Term ids are local to the batch's own vocabulary; `mergeBatch` maps them into
 * the build's vocabulary in the order they were first seen, so a batch merged after the
 * pages before it gives exactly the ids analysing all pages in one thread would give.
 */
export interface PageBatch {
  /** Per page, in input order: what the index keeps (body dropped), or null when unreadable. */
  docs: Array<PageDocument | null>;
  /** Per page, the text a text-reading embedder embeds ('' when not asked for). */
  texts: string[];
  /** The batch's terms by local id. */
  vocabulary: string[];
  /** Every page's lexical term ids (its fields one after another), pages one after another. */
  terms: Int32Array;
  /** Page p's terms are `terms[termStarts[p] … termStarts[p + 1])`. */
  termStarts: Uint32Array;
  /** Per page, where each of its fields ends, relative to the page's first term. */
  fieldEnds: Uint32Array;
  /** Every page's whole-term ids (token lane), packed like `terms`. */
  whole: Int32Array;
  wholeStarts: Uint32Array;
}

/** The number of lexical fields a page has (see LEXICAL_FIELDS); fieldEnds holds this many per page. */
export const FIELDS_PER_PAGE = 5;

/** Read and analyse `paths` under `root` into one batch. */
export function analyseBatch(root: string, paths: readonly string[], withText: boolean, language: string): PageBatch {
  const vocabulary = new Vocabulary();
  const docs: Array<PageDocument | null> = [];
  const texts: string[] = [];
  const termParts: Int32Array[] = [];
  const wholeParts: Int32Array[] = [];
  const fieldEnds = new Uint32Array(paths.length * FIELDS_PER_PAGE);
  paths.forEach((pagePath, p) => {
    const content = readPage(root, pagePath);
    if (content === undefined) {
      docs.push(null);
      texts.push('');
      termParts.push(new Int32Array(0));
      wholeParts.push(new Int32Array(0));
      return;
    }
    const doc = pageDocument(pagePath, content, language);
    const analysed = analysePageIds(doc, vocabulary, false);
    texts.push(withText ? documentText(doc) : '');
    docs.push({ ...doc, body: '' });
    termParts.push(analysed.terms);
    wholeParts.push(analysed.whole);
    analysed.fieldEnds.forEach((end, f) => (fieldEnds[p * FIELDS_PER_PAGE + f] = end));
  });
  const [terms, termStarts] = concatenate(termParts);
  const [whole, wholeStarts] = concatenate(wholeParts);
  return { docs, texts, vocabulary: vocabulary.terms, terms, termStarts, fieldEnds, whole, wholeStarts };
}

/** The buffers of a batch, to transfer rather than copy when posting it to another thread. */
export function batchBuffers(batch: PageBatch): ArrayBuffer[] {
  return [batch.terms.buffer, batch.termStarts.buffer, batch.fieldEnds.buffer, batch.whole.buffer, batch.wholeStarts.buffer] as ArrayBuffer[];
}

function concatenate(parts: readonly Int32Array[]): [Int32Array, Uint32Array] {
  const starts = new Uint32Array(parts.length + 1);
  parts.forEach((part, p) => (starts[p + 1] = starts[p]! + part.length));
  const all = new Int32Array(starts[parts.length]!);
  parts.forEach((part, p) => all.set(part, starts[p]!));
  return [all, starts];
}

/** One page of a merged batch, its ids now in the build's vocabulary. */
export interface MergedPage {
  doc: PageDocument;
  text: string;
  terms: Int32Array;
  fieldEnds: number[];
  whole: Int32Array;
}

/**
 * Map a batch's ids into `vocabulary` (in place: the batch is spent) and return its
 * readable pages in order, each with its index in the batch.
 */
export function mergeBatch(batch: PageBatch, vocabulary: Vocabulary): Array<{ at: number; page: MergedPage }> {
  const remap = Int32Array.from(batch.vocabulary, (term) => vocabulary.id(term));
  for (const ids of [batch.terms, batch.whole]) for (let i = 0; i < ids.length; i++) ids[i] = remap[ids[i]!]!;
  const out: Array<{ at: number; page: MergedPage }> = [];
  batch.docs.forEach((doc, p) => {
    if (!doc) return;
    out.push({
      at: p,
      page: {
        doc,
        text: batch.texts[p] ?? '',
        terms: batch.terms.subarray(batch.termStarts[p]!, batch.termStarts[p + 1]!),
        fieldEnds: Array.from(batch.fieldEnds.subarray(p * FIELDS_PER_PAGE, (p + 1) * FIELDS_PER_PAGE)),
        whole: batch.whole.subarray(batch.wholeStarts[p]!, batch.wholeStarts[p + 1]!),
      },
    });
  });
  return out;
}
