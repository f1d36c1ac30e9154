import { parentPort } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './build-threads.js';
import { trainLsa, type LsaParts, type TermIdPages } from './lsa.js';
import { analyseBatch, batchBuffers, FIELDS_PER_PAGE, type PageBatch } from './page-batch.js';
import { Vocabulary } from './vocabulary.js';

/**
 * The build worker's thread (see build-threads.ts): answers each request in turn. A
 * failure is sent back as a message, never thrown, so the index can do the work itself.
 */

/** The pages of the last batch kept for training: what the embedder reads of each. */
let kept: TermIdPages | undefined;

/** A batch's pages as a training corpus (copied: the batch's buffers leave this thread). */
function trainingCorpus(batch: PageBatch): TermIdPages {
  const vocabulary = new Vocabulary();
  for (const term of batch.vocabulary) vocabulary.id(term);
  const pages: Int32Array[] = [];
  batch.docs.forEach((doc, p) => {
    if (!doc) return;
    // The embedder reads every field but the key (the first).
    const from = batch.termStarts[p]! + batch.fieldEnds[p * FIELDS_PER_PAGE]!;
    pages.push(batch.terms.slice(from, batch.termStarts[p + 1]!));
  });
  return { vocabulary, pages };
}

function withoutRows(parts: LsaParts | undefined): { parts: LsaParts | undefined; transfer: ArrayBuffer[] } {
  if (!parts) return { parts, transfer: [] };
  delete parts.rows; // meaningless on the other thread
  return { parts, transfer: [parts.idf.buffer, parts.basis.buffer] as ArrayBuffer[] };
}

function answer(request: WorkerRequest): { reply: WorkerReply; transfer: ArrayBuffer[] } {
  if (request.kind === 'analyse') {
    const batch = analyseBatch(request.root, request.paths, request.withText);
    if (request.keepForTraining) kept = trainingCorpus(batch);
    return { reply: { id: request.id, batch }, transfer: batchBuffers(batch) };
  }
  let corpus: TermIdPages;
  if (request.kind === 'train-kept') {
    if (!kept) throw new Error('no pages were kept for training');
    corpus = kept;
    kept = undefined;
  } else {
    const vocabulary = new Vocabulary();
    for (const term of request.terms) vocabulary.id(term);
    const pages = Array.from({ length: request.starts.length - 1 }, (_, p) => request.ids.subarray(request.starts[p]!, request.starts[p + 1]!));
    corpus = { vocabulary, pages };
  }
  const { parts, transfer } = withoutRows(trainLsa(corpus, request.options));
  return { reply: { id: request.id, parts }, transfer };
}

const port = parentPort;
port?.on('message', (request: WorkerRequest) => {
  try {
    const { reply, transfer } = answer(request);
    port.postMessage(reply, transfer);
  } catch (error) {
    const reply: WorkerReply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});
