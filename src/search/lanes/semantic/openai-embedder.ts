import type OpenAI from 'openai';
import type { Embedder, EmbeddingInput } from './embedder.js';
import type { EmbeddingCache } from './embedding-cache.js';

/**
 * Embeddings from any OpenAI-compatible endpoint (OpenAI, Ollama, llama.cpp server,
 * vLLM…) through the `openai` SDK with a base URL. Pages are sent in batches; every
 * vector is cached by text hash and model. Some models are trained with task prefixes
 * and rank noticeably worse without them; those are added here.
 */
export interface ModelPrefixes {
  query: string;
  document: string;
}

const RETRIEVAL_QUERY = 'Represent this sentence for searching relevant passages: ';

/** Task prefixes by model family (matched on the model name). */
export function prefixesFor(model: string): ModelPrefixes {
  const name = model.toLowerCase();
  if (name.includes('nomic-embed-text')) return { query: 'search_query: ', document: 'search_document: ' };
  if (/(^|[/:_-])(multilingual-)?e5([_-]|$)/.test(name)) return { query: 'query: ', document: 'passage: ' };
  if (name.includes('mxbai-embed-large') || name.includes('snowflake-arctic-embed')) return { query: RETRIEVAL_QUERY, document: '' };
  return { query: '', document: '' };
}

/** Endpoints reject very long inputs; the start of a page says what it is about. */
export const MAX_EMBED_CHARS = 8000;

export interface OpenAIEmbedderOptions {
  client: OpenAI;
  model: string;
  baseUrl: string;
  batchSize: number;
  cache: EmbeddingCache;
}

export class OpenAIEmbedder implements Embedder {
  readonly description: string;
  readonly configKey: string;
  private readonly prefixes: ModelPrefixes;
  /** Requests sent so far (for tests and diagnostics). */
  requests = 0;

  constructor(private readonly options: OpenAIEmbedderOptions) {
    this.prefixes = prefixesFor(options.model);
    this.description = `${options.model} at ${options.baseUrl}`;
    this.configKey = `openai:${options.baseUrl}:${options.model}`;
  }

  async embedDocuments(inputs: readonly EmbeddingInput[]): Promise<Array<Float32Array | undefined>> {
    const texts = inputs.map((input) => (input.text.trim() ? `${this.prefixes.document}${input.text.slice(0, MAX_EMBED_CHARS)}` : ''));
    return this.embedTexts(texts);
  }

  async embedQuery(query: string): Promise<Float32Array | undefined> {
    const [vector] = await this.embedTexts([query.trim() ? `${this.prefixes.query}${query.slice(0, MAX_EMBED_CHARS)}` : '']);
    return vector;
  }

  private async embedTexts(texts: readonly string[]): Promise<Array<Float32Array | undefined>> {
    const { cache, batchSize } = this.options;
    const out: Array<Float32Array | undefined> = texts.map((text) => (text ? cache.get(text) : undefined));
    const missing = [...new Set(texts.filter((text, i) => text && !out[i]))];
    try {
      for (let start = 0; start < missing.length; start += batchSize) {
        const batch = missing.slice(start, start + batchSize);
        const vectors = await this.request(batch);
        batch.forEach((text, i) => {
          const vector = vectors[i];
          if (vector) cache.put(text, vector);
        });
      }
    } finally {
      await cache.flush();
    }
    return texts.map((text, i) => out[i] ?? (text ? cache.get(text) : undefined));
  }

  private async request(batch: string[]): Promise<Float32Array[]> {
    this.requests++;
    const response = await this.options.client.embeddings.create({
      model: this.options.model,
      input: batch,
      encoding_format: 'float',
    });
    const vectors: Float32Array[] = new Array<Float32Array>(batch.length);
    response.data.forEach((item, position) => {
      const index = typeof item.index === 'number' ? item.index : position;
      vectors[index] = unit(Float32Array.from(item.embedding));
    });
    for (let i = 0; i < batch.length; i++) {
      if (!vectors[i]?.length) throw new Error(`the endpoint returned ${response.data.length} embeddings for ${batch.length} inputs`);
    }
    return vectors;
  }
}

function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  return vector.map((x) => x * scale);
}
