import { DEFAULT_LSA_OPTIONS, LSA_MIN_PAGES, LsaModel, termIdPages, type LsaTrainer, type TermIdPages } from './lsa.js';
import type { LsaOptions } from './lsa-train.js';
import type { Vocabulary } from '../../text/vocabulary.js';

/**
 * The port behind the semantic lane. A page or query becomes a unit vector; vectors from
 * one embedder are compared by cosine. Implementations: the built-in LSA embedder
 * (trained on the wiki itself) and any OpenAI-compatible embeddings endpoint.
 */
export interface EmbeddingInput {
  /** The page's text (title, key words, summary, tags, body). */
  text: string;
  /** The same text analysed (stemmed terms), for embedders that work on terms. */
  terms: readonly string[];
}

/** An input whose terms are held as vocabulary ids (a bulk build); `terms` spells them out on demand. */
export class IdEmbeddingInput implements EmbeddingInput {
  constructor(
    readonly text: string,
    readonly ids: Int32Array,
    readonly vocabulary: Vocabulary,
  ) {}

  get terms(): string[] {
    return Array.from(this.ids, (id) => this.vocabulary.terms[id] ?? '');
  }
}

/** The inputs' terms as ids of one vocabulary: theirs when they share one, else a new one. */
function asTermIds(inputs: readonly EmbeddingInput[]): TermIdPages {
  const first = inputs[0];
  if (first instanceof IdEmbeddingInput && inputs.every((input) => input instanceof IdEmbeddingInput && input.vocabulary === first.vocabulary)) {
    return { vocabulary: first.vocabulary, pages: inputs.map((input) => (input as IdEmbeddingInput).ids) };
  }
  return termIdPages(inputs.map((input) => input.terms));
}

export interface Embedder {
  /** Human description, e.g. `built-in LSA (128 dimensions)`. */
  readonly description: string;
  /** Identifies the configuration; vectors made under another key are never reused. */
  readonly configKey: string;
  /** Embed pages; an entry is undefined when there is nothing to embed. Throws on failure. */
  embedDocuments(inputs: readonly EmbeddingInput[]): Promise<Array<Float32Array | undefined>>;
  /** Embed a query; undefined when there is nothing to embed. Throws on failure. */
  embedQuery(query: string, terms: readonly string[]): Promise<Float32Array | undefined>;
}

/**
 * An embedder whose model is fitted to the corpus (trained, persisted, retrained on drift).
 * It embeds from an input's `terms` alone, so inputs made for it may leave `text` empty.
 */
export interface CorpusEmbedder extends Embedder {
  /** Why the embedder cannot embed yet (too few pages), or undefined when trained. */
  readonly notReady: string | undefined;
  readonly trainedPages: number;
  /** Fit the model to these pages, with `trainer` when one is given (a build worker), else here. */
  train(pages: readonly EmbeddingInput[], trainer?: LsaTrainer): Promise<void>;
  encodeModel(): Record<string, Uint8Array> | undefined;
  loadModel(sections: Record<string, Uint8Array | undefined>): void;
}

export function isCorpusEmbedder(embedder: Embedder): embedder is CorpusEmbedder {
  return 'train' in embedder;
}

/**
 * Raised when the model's training changes in a way its options do not show (2: idf as
 * log((n + 1) / df)), so vectors and models saved by an older version are rebuilt.
 */
const MODEL_VERSION = 2;

/** The built-in embedder: LSA over the wiki's own vocabulary. */
export class LsaEmbedder implements CorpusEmbedder {
  private model: LsaModel | undefined;
  private readonly options: LsaOptions;

  constructor(dimensions: number, options: Partial<Omit<LsaOptions, 'dimensions'>> = {}) {
    this.options = { ...DEFAULT_LSA_OPTIONS, ...options, dimensions };
  }

  get description(): string {
    const dims = this.model?.dimensions ?? this.options.dimensions;
    return `built-in LSA (${dims} dimensions${this.model ? `, trained on ${this.model.trainedPages} pages` : ''})`;
  }

  get configKey(): string {
    const o = this.options;
    return `builtin-lsa:${MODEL_VERSION}:${o.dimensions}:${o.maxTrainingPages}:${o.maxVocabulary}:${o.powerIterations}:${o.seed}:${o.rowNormPower}:${o.sigmaPower}`;
  }

  get notReady(): string | undefined {
    return this.model ? undefined : `the built-in embedder needs at least ${LSA_MIN_PAGES} pages to train`;
  }

  get trainedPages(): number {
    return this.model?.trainedPages ?? 0;
  }

  /** The training settings (a build worker trains with them). */
  get trainingOptions(): LsaOptions {
    return this.options;
  }

  async train(pages: readonly EmbeddingInput[], trainer?: LsaTrainer): Promise<void> {
    const corpus = asTermIds(pages);
    if (trainer) {
      // A trainer that fails (its thread died) is no reason to go without a model.
      const parts = await trainer(corpus, this.options).catch(() => 'failed' as const);
      if (parts !== 'failed') {
        this.model = parts && LsaModel.fromParts(parts);
        return;
      }
    }
    this.model = LsaModel.trainIds(corpus, this.options);
  }

  encodeModel(): Record<string, Uint8Array> | undefined {
    return this.model?.encode();
  }

  loadModel(sections: Record<string, Uint8Array | undefined>): void {
    this.model = LsaModel.decode(sections);
  }

  async embedDocuments(inputs: readonly EmbeddingInput[]): Promise<Array<Float32Array | undefined>> {
    const model = this.model;
    if (!model) return inputs.map(() => undefined);
    if (inputs.length === 1) return [model.embed(inputs[0]?.terms ?? [])];
    return model.embedIds(asTermIds(inputs));
  }

  async embedQuery(_query: string, terms: readonly string[]): Promise<Float32Array | undefined> {
    return this.model?.embed(terms);
  }
}
