import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LsaOptions } from '../lanes/semantic/lsa-train.js';
import type { LsaParts, TermIdPages } from '../lanes/semantic/lsa.js';
import type { PageBatch } from './page-batch.js';

/**
 * A second thread for full builds. At 10k pages, reading and analysing the pages is half
 * of a build and splits cleanly by page; training the built-in embedder is most of the
 * rest and can run while this thread builds the lexical and token lanes. The worker runs
 * the same modules as the index (compiled next to this file); when they are not there
 * (running from TypeScript sources) or the machine has one core, there is no worker and
 * the index does all the work itself, with the same result.
 */
export type WorkerRequest =
  | { id: number; kind: 'analyse'; root: string; paths: readonly string[]; withText: boolean; keepForTraining: boolean; language: string }
  | { id: number; kind: 'train'; terms: string[]; ids: Int32Array; starts: Uint32Array; options: LsaOptions }
  | { id: number; kind: 'train-kept'; options: LsaOptions }
  | { id: number; kind: 'embed-kept' };

/** Embeddings of pages in order: `dimensions` floats per page, `present[p]` 0 where a page has none. */
export interface PackedVectors {
  dimensions: number;
  values: Float32Array;
  present: Uint8Array;
}

export type WorkerReply =
  | { id: number; batch: PageBatch }
  | { id: number; parts: LsaParts | undefined }
  | { id: number; vectors: PackedVectors }
  | { id: number; error: string };

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

const WORKER_SCRIPT = new URL('./build-worker.js', import.meta.url);

export class BuildWorker {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: WorkerReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in reply) waiter.reject(new Error(`build worker: ${reply.error}`));
      else waiter.resolve(reply);
    });
    const fail = (error: Error): void => {
      this.failure ??= error;
      for (const waiter of this.waiting.values()) waiter.reject(this.failure);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`build worker exited (code ${code})`)));
    // Keeps the process alive only while a request is being answered.
    worker.unref();
  }

  /** A worker, or undefined when there is no second core or no compiled worker script. */
  static start(): BuildWorker | undefined {
    if (os.availableParallelism() < 2 || !existsSync(fileURLToPath(WORKER_SCRIPT))) return undefined;
    try {
      return new BuildWorker(new Worker(WORKER_SCRIPT));
    } catch {
      return undefined;
    }
  }

  /**
   * Read and analyse pages on the worker (see analyseBatch). With `keepForTraining` the
   * worker also keeps the pages' terms, for `trainOnKept`.
   */
  /** `language`: that of a page that neither states nor shows one (see pageDocument). */
  async analyse(root: string, paths: readonly string[], withText: boolean, language: string, keepForTraining = false): Promise<PageBatch> {
    const reply = await this.request({ kind: 'analyse', root, paths, withText, keepForTraining, language });
    if (!('batch' in reply)) throw new Error('build worker: unexpected reply');
    return reply.batch;
  }

  /** Train the built-in embedder on the worker (see trainLsa); give it `trainingSample`'s corpus. */
  async trainLsa(sample: TermIdPages, options: LsaOptions): Promise<LsaParts | undefined> {
    const starts = new Uint32Array(sample.pages.length + 1);
    sample.pages.forEach((page, p) => (starts[p + 1] = starts[p]! + page.length));
    const ids = new Int32Array(starts[sample.pages.length]!);
    sample.pages.forEach((page, p) => ids.set(page, starts[p]!));
    const reply = await this.request({ kind: 'train', terms: sample.vocabulary.terms, ids, starts, options }, [ids.buffer, starts.buffer]);
    if (!('parts' in reply)) throw new Error('build worker: unexpected reply');
    return reply.parts;
  }

  /** Train the built-in embedder on the pages of the last batch analysed with `keepForTraining`. */
  async trainOnKept(options: LsaOptions): Promise<LsaParts | undefined> {
    const reply = await this.request({ kind: 'train-kept', options });
    if (!('parts' in reply)) throw new Error('build worker: unexpected reply');
    return reply.parts;
  }

  /** Embed the kept pages with the model `trainOnKept` made (ask right after it, to run while this thread embeds others). */
  async embedKept(): Promise<PackedVectors> {
    const reply = await this.request({ kind: 'embed-kept' });
    if (!('vectors' in reply)) throw new Error('build worker: unexpected reply');
    return reply.vectors;
  }

  private request(request: Request, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('build worker closed');
    await this.worker.terminate();
  }
}
