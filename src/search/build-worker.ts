import { parentPort } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './build-threads.js';
import { trainLsa } from './lsa.js';
import { analyseBatch, batchBuffers } from './page-batch.js';
import { Vocabulary } from './vocabulary.js';

/**
 * The build worker's thread (see build-threads.ts): answers each request in turn. A
 * failure is sent back as a message, never thrown, so the index can do the work itself.
 */
function answer(request: WorkerRequest): { reply: WorkerReply; transfer: ArrayBuffer[] } {
  if (request.kind === 'analyse') {
    const batch = analyseBatch(request.root, request.paths, request.withText);
    return { reply: { id: request.id, batch }, transfer: batchBuffers(batch) };
  }
  const vocabulary = new Vocabulary();
  for (const term of request.terms) vocabulary.id(term);
  const pages = Array.from({ length: request.starts.length - 1 }, (_, p) => request.ids.subarray(request.starts[p]!, request.starts[p + 1]!));
  const parts = trainLsa({ vocabulary, pages }, request.options);
  delete parts?.rows; // meaningless on the other thread
  return { reply: { id: request.id, parts }, transfer: parts ? ([parts.idf.buffer, parts.basis.buffer] as ArrayBuffer[]) : [] };
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
