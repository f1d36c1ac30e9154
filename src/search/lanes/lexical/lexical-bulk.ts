import { GroupingBuffer } from '../../kernels/grouping.js';
import { TermList } from '../../kernels/term-list.js';
import type { FlatPostings } from '../token/term-index.js';
import { VarintWriter } from '../../kernels/varint.js';
import type { Vocabulary } from '../../text/vocabulary.js';

/** A page for the bulk build: its fields' term ids one after another, in the index's field order. */
export interface BulkEntry {
  terms: ArrayLike<number>;
  /** Where each field's ids end in `terms`. */
  fieldEnds: readonly number[];
}

/**
 * What MiniSearch would hold after adding `entries` one by one (short ids in entry order),
 * as flat columns: per page its short id and each field's length (distinct terms, an
 * empty field counting one, as in MiniSearch 7), the running average field lengths, and
 * the postings of each term in term order, each field's (short id, term frequency) pairs
 * as varints.
 */
export function bulkPostings(
  entries: readonly BulkEntry[],
  vocabulary: Vocabulary,
  fieldCount: number,
): { docs: Uint32Array; averageFieldLength: number[]; postings: FlatPostings } {
  const total = entries.reduce((sum, entry) => sum + entry.terms.length, 0);
  // Postings keyed by termId × fieldCount + fieldId: (shortId, tf) in order of shortId.
  const postingsOf = new GroupingBuffer(total, vocabulary.size * fieldCount, true);
  const counts = new Uint32Array(vocabulary.size);
  const touched: number[] = [];
  const docs = new Uint32Array(entries.length * (1 + fieldCount));
  const averageFieldLength = new Array<number>(fieldCount).fill(0);
  entries.forEach((entry, shortId) => {
    const base = shortId * (1 + fieldCount);
    docs[base] = shortId;
    const terms = entry.terms;
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      const end = entry.fieldEnds[fieldId] ?? 0;
      for (let i = fieldId === 0 ? 0 : (entry.fieldEnds[fieldId - 1] ?? 0); i < end; i++) {
        const id = terms[i]!;
        if (counts[id]!++ === 0) touched.push(id);
      }
      const length = touched.length || 1;
      docs[base + 1 + fieldId] = length;
      averageFieldLength[fieldId] = (averageFieldLength[fieldId]! * shortId + length) / (shortId + 1);
      for (const id of touched) {
        postingsOf.push(id * fieldCount + fieldId, shortId, counts[id]!);
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
  const { starts, first: shortIds, second: frequencies } = postingsOf.group();
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
        writer.pushGap(shortIds[p]! - previous);
        writer.push(frequencies[p]!);
        previous = shortIds[p]!;
      }
    }
  });
  offsets[sorted.length] = writer.length;
  const terms = TermList.of(sorted.map((id) => vocabulary.terms[id] ?? ''));
  return { docs, averageFieldLength, postings: { terms, offsets, postings: writer.finish() } };
}
