import { GroupingBuffer } from '../../kernels/grouping.js';
import { TermList } from '../../kernels/term-list.js';
import type { FlatPostings } from './term-postings.js';
import { VarintWriter } from '../../kernels/varint.js';
import type { Vocabulary } from '../../text/vocabulary.js';

/** A page for the bulk build: its fields' term ids one after another, in the index's field order. */
export interface BulkEntry {
  terms: ArrayLike<number>;
  /** Where each field's ids end in `terms`. */
  fieldEnds: readonly number[];
}

/**
 * What the lexical index holds after adding `entries` one by one (documents numbered in
 * entry order), as flat columns: each page's field lengths (distinct terms, an empty field
 * counting one), the running average field lengths, and the postings of each term in term
 * order, each field's (document, term frequency) pairs as varints.
 */
export function bulkPostings(
  entries: readonly BulkEntry[],
  vocabulary: Vocabulary,
  fieldCount: number,
): { lengths: Uint32Array; averageLength: number[]; postings: FlatPostings } {
  const total = entries.reduce((sum, entry) => sum + entry.terms.length, 0);
  // Postings keyed by termId × fieldCount + fieldId: (document, tf) in document order.
  const postingsOf = new GroupingBuffer(total, vocabulary.size * fieldCount, true);
  const counts = new Uint32Array(vocabulary.size);
  const touched: number[] = [];
  const lengths = new Uint32Array(entries.length * fieldCount);
  const averageLength = new Array<number>(fieldCount).fill(0);
  entries.forEach((entry, doc) => {
    const base = doc * fieldCount;
    const terms = entry.terms;
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      const end = entry.fieldEnds[fieldId] ?? 0;
      for (let i = fieldId === 0 ? 0 : (entry.fieldEnds[fieldId - 1] ?? 0); i < end; i++) {
        const id = terms[i]!;
        if (counts[id]!++ === 0) touched.push(id);
      }
      const length = touched.length || 1;
      lengths[base + fieldId] = length;
      averageLength[fieldId] = (averageLength[fieldId]! * doc + length) / (doc + 1);
      for (const id of touched) {
        postingsOf.push(id * fieldCount + fieldId, doc, counts[id]!);
        counts[id] = 0;
      }
      touched.length = 0;
    }
  });
  const termIds: number[] = [];
  for (let id = 0; id < vocabulary.size; id++) {
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      if (postingsOf.has(id * fieldCount + fieldId)) {
        termIds.push(id);
        break;
      }
    }
  }
  const sorted = vocabulary.sortedIds(termIds);
  const { starts, first: docIds, second: frequencies } = postingsOf.group();
  const writer = new VarintWriter(1 << 20);
  const offsets = new Uint32Array(sorted.length + 1);
  sorted.forEach((id, t) => {
    offsets[t] = writer.length;
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      const from = starts[id * fieldCount + fieldId]!;
      const to = starts[id * fieldCount + fieldId + 1]!;
      if (from === to) continue;
      writer.push(fieldId);
      writer.push(to - from);
      for (let p = from, previous = 0; p < to; p++) {
        writer.pushGap(docIds[p]! - previous);
        writer.push(frequencies[p]!);
        previous = docIds[p]!;
      }
    }
  });
  offsets[sorted.length] = writer.length;
  const terms = TermList.of(sorted.map((id) => vocabulary.terms[id] ?? ''));
  return { lengths, averageLength, postings: { terms, offsets, postings: writer.finish() } };
}
