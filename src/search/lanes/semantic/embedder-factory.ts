import path from 'node:path';
import type { SearchSettings } from '../../settings.js';
import { LsaEmbedder } from './embedder.js';
import type { Embedder } from './embedder.js';
import { EmbeddingCache, cacheFileName } from './embedding-cache.js';
import type { SearchTuning } from '../../fusion/tuning.js';

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

/** Which embedder the configuration asks for, without constructing it (no I/O). */
export type EmbedderSetting =
  | { kind: 'builtin'; dimensions: number }
  | { kind: 'openai'; baseUrl: string; model: string; apiKey: string | undefined }
  | { kind: 'off'; reason: string };

export function embedderSetting(config: Pick<SearchSettings, 'search'>, env: NodeJS.ProcessEnv): EmbedderSetting {
  const settings = config.search.embedder;
  if (settings.kind === 'none') return { kind: 'off', reason: 'search.embedder.kind is none' };
  if (settings.kind === 'builtin') return { kind: 'builtin', dimensions: settings.dimensions };
  const apiKey = env.OPENAI_API_KEY || undefined;
  const baseUrl = settings.baseUrl ?? env.OPENAI_BASE_URL ?? (apiKey ? OPENAI_URL : undefined);
  if (!baseUrl) return { kind: 'off', reason: 'the openai embedder needs OPENAI_API_KEY, OPENAI_BASE_URL or search.embedder.baseUrl' };
  return { kind: 'openai', baseUrl, model: settings.model, apiKey };
}

export async function createEmbedder(config: Pick<SearchSettings, 'search'>, context: EmbedderContext): Promise<EmbedderChoice> {
  const setting = embedderSetting(config, context.env);
  if (setting.kind === 'off') return { off: setting.reason };
  if (setting.kind === 'builtin') return { embedder: new LsaEmbedder(setting.dimensions, context.tuning.lsa) };
  const { baseUrl, apiKey } = setting;
  const settings = config.search.embedder;
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
