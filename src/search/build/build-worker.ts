import { parentPort } from 'node:worker_threads';
import type { PackedVectors, WorkerReply, WorkerRequest } from './build-threads.js';
import { LsaModel, trainLsa, type LsaParts, type TermIdPages } from '../lanes/semantic/lsa.js';
import { analyseBatch, batchBuffers, FIELDS_PER_PAGE, type PageBatch } from './page-batch.js';
import { Vocabulary } from '../text/vocabulary.js';

/**
 * The build worker's thread (see build-threads.ts): answers each request in turn. A
 * failure is sent back as a message, never thrown, so the index can do the work itself.
 */

/** The pages of the last batch kept for training: what the embedder reads of each. */
let kept: TermIdPages | undefined;
/** The model trained on them, to embed them with. */
let keptModel: LsaModel | undefined;

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

function packVectors(vectors: ReadonlyArray<Float32Array | undefined>, dimensions: number): PackedVectors {
  const values = new Float32Array(vectors.length * dimensions);
  const present = new Uint8Array(vectors.length);
  vectors.forEach((vector, p) => {
    if (!vector) return;
    values.set(vector, p * dimensions);
    present[p] = 1;
  });
  return { dimensions, values, present };
}

function withoutRows(parts: LsaParts | undefined): { parts: LsaParts | undefined; transfer: ArrayBuffer[] } {
  if (!parts) return { parts, transfer: [] };
  delete parts.rows; // meaningless on the other thread
  return { parts, transfer: [parts.idf.buffer, parts.basis.buffer] as ArrayBuffer[] };
}

function answer(request: WorkerRequest): { reply: WorkerReply; transfer: ArrayBuffer[] } {
  if (request.kind === 'analyse') {
    const batch = analyseBatch(request.root, request.paths, request.withText, request.language);
    if (request.keepForTraining) kept = trainingCorpus(batch);
    return { reply: { id: request.id, batch }, transfer: batchBuffers(batch) };
  }
  if (request.kind === 'embed-kept') {
    if (!kept || !keptModel) throw new Error('no model was trained on kept pages');
    const vectors = packVectors(keptModel.embedIds(kept), keptModel.dimensions);
    kept = undefined;
    keptModel = undefined;
    return { reply: { id: request.id, vectors }, transfer: [vectors.values.buffer, vectors.present.buffer] as ArrayBuffer[] };
  }
  let corpus: TermIdPages;
  if (request.kind === 'train-kept') {
    if (!kept) throw new Error('no pages were kept for training');
    corpus = kept;
  } else {
    const vocabulary = new Vocabulary();
    for (const term of request.terms) vocabulary.id(term);
    const pages = Array.from({ length: request.starts.length - 1 }, (_, p) => request.ids.subarray(request.starts[p]!, request.starts[p + 1]!));
    corpus = { vocabulary, pages };
  }
  const trained = trainLsa(corpus, request.options);
  // Kept for embed-kept: a copy, as the reply's buffers leave this thread.
  if (request.kind === 'train-kept' && trained) keptModel = LsaModel.fromParts({ ...trained, idf: trained.idf.slice(), basis: trained.basis.slice() });
  const { parts, transfer } = withoutRows(trained);
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
