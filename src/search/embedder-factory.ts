import path from 'node:path';
import type { WikiConfig } from '../config/schema.js';
import { LsaEmbedder } from './embedder.js';
import type { Embedder } from './embedder.js';
import { EmbeddingCache, cacheFileName } from './embedding-cache.js';
import type { SearchTuning } from './tuning.js';

/** The configured embedder, or why the semantic lane is off. */
export type EmbedderChoice = { embedder: Embedder } | { off: string };

export interface EmbedderContext {
  env: NodeJS.ProcessEnv;
  /** Folder for the embedding cache (`.wiki/search`). */
  searchDir: string;
  tuning: SearchTuning;
  timeoutMs: number;
  maxRetries: number;
}

const OPENAI_URL = 'https://api.openai.com/v1';

export async function createEmbedder(config: WikiConfig, context: EmbedderContext): Promise<EmbedderChoice> {
  const settings = config.search.embedder;
  if (settings.kind === 'none') return { off: 'search.embedder.kind is none' };
  if (settings.kind === 'builtin') return { embedder: new LsaEmbedder(settings.dimensions, context.tuning.lsa) };
  const apiKey = context.env.OPENAI_API_KEY;
  const baseUrl = settings.baseUrl ?? context.env.OPENAI_BASE_URL ?? (apiKey ? OPENAI_URL : undefined);
  if (!baseUrl) {
    return { off: 'the openai embedder needs OPENAI_API_KEY, OPENAI_BASE_URL or search.embedder.baseUrl' };
  }
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({
    // Local servers (Ollama, llama.cpp) ignore the key, but the SDK insists on one.
    apiKey: apiKey || 'no-key',
    baseURL: baseUrl,
    timeout: Math.min(context.timeoutMs, 120_000),
    maxRetries: Math.min(context.maxRetries, 2),
  });
  const cache = await EmbeddingCache.open(path.join(context.searchDir, 'embeddings', cacheFileName(baseUrl, settings.model)), settings.model);
  const { OpenAIEmbedder } = await import('./openai-embedder.js');
  return { embedder: new OpenAIEmbedder({ client, model: settings.model, baseUrl, batchSize: settings.batchSize, cache }) };
}
