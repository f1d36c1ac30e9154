import { CorruptIndexError, asUint32, bytesOf, decodeJson, encodeJson } from '../../kernels/binary.js';
import { isCorpusEmbedder, type Embedder, type EmbeddingInput } from './embedder.js';
import { LSA_MIN_PAGES, type LsaTrainer } from './lsa.js';
import type { LaneStatus } from '../../types.js';
import { VectorStore } from '../../kernels/vectors.js';
import { movedTowards, type SemanticFeedback } from './rocchio.js';
import type { VectorRanker } from './vector-ranker.js';

/**
 * The semantic lane: cosine similarity between the query's embedding and every page's.
 * Pages the embedder could not take (an endpoint error) stay pending and are retried
 * before the next search; while they or the query fail, the lane reports `failed` and
 * the search goes on without it. A corpus-trained embedder is retrained once enough
 * pages have been folded in since its training.
 */
export interface PageToEmbed {
  slot: number;
  input: EmbeddingInput;
}

/** Pages (by slot) whose vectors are being made elsewhere, in that order. */
export interface EmbeddedAhead {
  slots: readonly number[];
  vectors: Promise<ReadonlyArray<Float32Array | undefined>>;
}

export interface SemanticHit {
  slot: number;
  similarity: number;
}

interface Meta {
  configKey: string;
  dimensions: number;
  foldedIn: number;
  pagesAtTraining: number;
  /** How well the lane finds pages from their titles against the lexical lane, measured at training (`fusion/semantic-strength.ts`). */
  strength?: number;
}

/** Retrain once this share of the pages seen at training has been added or changed since. */
const DRIFT_SHARE = 0.2;
const DRIFT_MIN_PAGES = 5;

export class SemanticLane {
  private vectors: VectorStore | undefined;
  private pending = new Set<number>();
  private failure: string | undefined;
  private foldedIn = 0;
  private pagesAtTraining = 0;
  private measuredStrength: number | undefined;
  private strengthDue = false;
  private modelChanges = 0;

  constructor(readonly embedder: Embedder) {}

  /** Counts the times the embedder's model was trained or restored: every page's vector changes with it. */
  get modelVersion(): number {
    return this.modelChanges;
  }

  /** A page's unit vector, if it has one (for smoothing fused scores over similar pages). */
  pageVector(slot: number): Float32Array | undefined {
    return this.vectors?.vector(slot);
  }

  /** The lane's state as a status string. */
  status(): LaneStatus {
    if (this.failure && this.pending.size > 0) return `failed: ${this.failure}`;
    if (isCorpusEmbedder(this.embedder) && this.embedder.notReady) return `skipped: ${this.embedder.notReady}`;
    return 'ok';
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** True when a corpus-trained embedder should be (re)trained on all pages. */
  needsTraining(livePages: number): boolean {
    const embedder = this.embedder;
    if (!isCorpusEmbedder(embedder)) return false;
    // Untrained: try once the corpus is big enough, and again whenever it has grown.
    if (embedder.notReady) return livePages >= LSA_MIN_PAGES && livePages !== this.pagesAtTraining;
    return this.foldedIn >= Math.max(DRIFT_MIN_PAGES, Math.ceil(DRIFT_SHARE * this.pagesAtTraining));
  }

  /**
   * Train a corpus embedder on every live page (with `trainer` if given) and embed them
   * all. `ahead` are pages embedded elsewhere with the model the trainer made (a build
   * worker embeds the pages it trained on while this thread embeds the rest); where that
   * fails, they are embedded here.
   */
  async train(pages: readonly PageToEmbed[], trainer?: LsaTrainer, ahead?: EmbeddedAhead): Promise<void> {
    const embedder = this.embedder;
    if (!isCorpusEmbedder(embedder)) return;
    await embedder.train(
      pages.map((page) => page.input),
      trainer,
    );
    this.vectors = undefined;
    this.pending.clear();
    this.modelChanges++;
    this.pagesAtTraining = pages.length;
    const elsewhere = ahead ? new Set(ahead.slots) : undefined;
    await this.embed(elsewhere ? pages.filter((page) => !elsewhere.has(page.slot)) : pages);
    if (ahead) {
      const vectors = await ahead.vectors.catch(() => undefined);
      if (vectors && vectors.length === ahead.slots.length) {
        ahead.slots.forEach((slot, i) => this.place(slot, vectors[i]));
      } else await this.embed(pages.filter((page) => elsewhere?.has(page.slot)));
    }
    this.foldedIn = 0;
    this.measuredStrength = undefined;
    this.strengthDue = true;
  }

  /** How well the lane finds pages against the lexical lane, measured once after each training (by the engine, which holds the other lanes); unknown before. */
  get strength(): number | undefined {
    return this.measuredStrength;
  }

  /** True right after a training that left the lane able to search: its strength is to be measured. */
  get strengthToMeasure(): boolean {
    return this.strengthDue && this.vectors !== undefined && this.status() === 'ok';
  }

  /** Record the strength measured after training (undefined: it could not be). */
  setStrength(strength: number | undefined): void {
    this.measuredStrength = strength;
    this.strengthDue = false;
  }

  /** `slot`'s rank (1 for the best) among every page by its similarity to `query` as embedded, without feedback; 0 when the lane cannot say. */
  async rankFor(query: string, terms: readonly string[], slot: number, rankOf: (slot: number, scores: Float64Array) => number): Promise<number> {
    const embedded = await this.embeddedQuery(query, terms);
    if ('status' in embedded) return 0;
    return rankOf(slot, this.vectors!.similarities(embedded.vector));
  }

  private place(slot: number, vector: Float32Array | undefined): void {
    if (!vector) {
      this.vectors?.delete(slot);
      return;
    }
    if (!this.vectors || this.vectors.dimensions !== vector.length) this.vectors = new VectorStore(vector.length);
    this.vectors.set(slot, vector);
  }

  /** Embed new or changed pages; failures are recorded and the pages kept pending. */
  async embed(pages: readonly PageToEmbed[]): Promise<void> {
    if (pages.length === 0) return;
    if (isCorpusEmbedder(this.embedder) && this.embedder.notReady) return;
    let vectors: Array<Float32Array | undefined>;
    try {
      vectors = await this.embedder.embedDocuments(pages.map((page) => page.input));
    } catch (error) {
      for (const page of pages) this.pending.add(page.slot);
      this.failure = describeFailure(error);
      return;
    }
    pages.forEach((page, i) => {
      this.pending.delete(page.slot);
      this.place(page.slot, vectors[i]);
    });
    this.foldedIn += pages.length;
    this.failure = undefined;
  }

  remove(slot: number): void {
    this.vectors?.delete(slot);
    this.pending.delete(slot);
  }

  /** Queue pages for embedding (after the embedder's configuration changed). */
  markPending(slots: Iterable<number>): void {
    for (const slot of slots) this.pending.add(slot);
  }

  /** Slots still waiting for an embedding. */
  pendingSlots(): number[] {
    return [...this.pending];
  }

  /**
   * The `pool` pages nearest the query. Returns the lane status for this search:
   * a failure to embed the query drops the lane from this search. With `feedback`, the
   * query's vector is moved towards the mean of those pages' vectors (pseudo-relevance
   * feedback from the lexical lane's best pages, Rocchio's rule): a query of a few words
   * embeds poorly, the pages it finds lexically say what it is about.
   */
  async search(
    query: string,
    terms: readonly string[],
    pool: number,
    isLive: (slot: number) => boolean,
    feedback?: SemanticFeedback,
    ranker?: VectorRanker,
  ): Promise<{ status: LaneStatus; hits: SemanticHit[] }> {
    const found = await this.queryVector(query, terms, feedback);
    if ('status' in found) return { status: found.status, hits: [] };
    return { status: 'ok', hits: ranker ? await ranker.nearest(found.vector, pool) : this.vectors!.nearest(found.vector, pool, isLive) };
  }

  /**
   * Every live page's similarity to the query (moved by `feedback` as in `search`), by
   * slot: what score fusion needs to give a page the same score however many are asked for.
   * With `refine`, a second round: it is handed these similarities and may name other
   * feedback pages, towards which the query (embedded once) is moved instead, and every
   * page scored again. `ranker` scores the pages in the lane's stead (the same vectors kept elsewhere).
   */
  async similarities(
    query: string,
    terms: readonly string[],
    feedback?: SemanticFeedback,
    refine?: (first: Float64Array) => readonly number[] | undefined,
    ranker?: VectorRanker,
  ): Promise<{ status: LaneStatus; similarities?: Float64Array }> {
    const embedded = await this.embeddedQuery(query, terms);
    if ('status' in embedded) return embedded;
    const score = (vector: Float32Array): Promise<Float64Array> | Float64Array => (ranker ? ranker.similarities(vector) : this.vectors!.similarities(vector));
    const first = await score(this.moved(embedded.vector, feedback));
    const slots = feedback && refine ? refine(first) : undefined;
    if (!feedback || !slots) return { status: 'ok', similarities: first };
    return { status: 'ok', similarities: await score(this.moved(embedded.vector, { ...feedback, slots })) };
  }

  /** The query's unit vector moved by `feedback`, or the lane status that keeps it from searching. */
  private async queryVector(query: string, terms: readonly string[], feedback?: SemanticFeedback): Promise<{ vector: Float32Array } | { status: LaneStatus }> {
    const embedded = await this.embeddedQuery(query, terms);
    return 'status' in embedded ? embedded : { vector: this.moved(embedded.vector, feedback) };
  }

  /** The query's embedding, or the lane status that keeps it from searching. */
  private async embeddedQuery(query: string, terms: readonly string[]): Promise<{ vector: Float32Array } | { status: LaneStatus }> {
    const before = this.status();
    if (before !== 'ok') return { status: before };
    let vector: Float32Array | undefined;
    try {
      vector = await this.embedder.embedQuery(query, terms);
    } catch (error) {
      return { status: `failed: ${describeFailure(error)}` };
    }
    if (!vector || !this.vectors || vector.length !== this.vectors.dimensions) return { status: 'ok' };
    return { vector };
  }

  private moved(vector: Float32Array, feedback: SemanticFeedback | undefined): Float32Array {
    return feedback && feedback.weight > 0 ? movedTowards(vector, feedback, (slot) => this.vectors?.vector(slot)) : vector;
  }

  encode(remap: Int32Array, slotCount: number): Record<string, Uint8Array> {
    const meta: Meta = {
      configKey: this.embedder.configKey,
      dimensions: this.vectors?.dimensions ?? 0,
      foldedIn: this.foldedIn,
      pagesAtTraining: this.pagesAtTraining,
      ...(this.measuredStrength === undefined ? {} : { strength: this.measuredStrength }),
    };
    const pending = Uint32Array.from([...this.pending].map((slot) => remap[slot] ?? -1).filter((slot) => slot >= 0));
    const sections: Record<string, Uint8Array> = { meta: encodeJson(meta), pending: bytesOf(pending) };
    if (this.vectors) Object.assign(sections, this.vectors.encode(remap, slotCount));
    const model = isCorpusEmbedder(this.embedder) ? this.embedder.encodeModel() : undefined;
    for (const [name, bytes] of Object.entries(model ?? {})) sections[`model.${name}`] = bytes;
    return sections;
  }

  /**
   * Restore from persisted sections. Returns false when they were made under another
   * embedder configuration or with the lane off (the caller then re-embeds everything).
   */
  restore(sections: Record<string, Uint8Array | undefined>, slotCount: number): boolean {
    if (!sections.meta) return false; // saved while the lane was off
    const meta = decodeJson(sections.meta) as Meta;
    if (meta?.configKey !== this.embedder.configKey) return false;
    const model: Record<string, Uint8Array | undefined> = {};
    for (const [name, bytes] of Object.entries(sections)) if (name.startsWith('model.')) model[name.slice(6)] = bytes;
    if (isCorpusEmbedder(this.embedder) && model.meta) this.embedder.loadModel(model);
    this.modelChanges++;
    this.vectors = meta.dimensions > 0 ? VectorStore.decode(sections, meta.dimensions, slotCount) : undefined;
    this.pending = new Set(sections.pending ? asUint32(sections.pending) : []);
    for (const slot of this.pending) if (slot >= slotCount) throw new CorruptIndexError('pending slot out of range');
    this.foldedIn = meta.foldedIn;
    this.pagesAtTraining = meta.pagesAtTraining;
    this.measuredStrength = typeof meta.strength === 'number' ? meta.strength : undefined;
    this.strengthDue = false;
    return true;
  }

  compact(remap: Int32Array, slotCount: number): void {
    this.vectors?.compact(remap, slotCount);
    this.pending = new Set([...this.pending].map((slot) => remap[slot] ?? -1).filter((slot) => slot >= 0));
  }
}

/** One line: the SDK's message without its request id noise. */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]?.trim() || 'unknown error';
}
