import type { LaneName } from './types.js';

/**
 * What the search index reads of the workspace's configuration (wiki.config.json's `search`
 * section and the request limits of an embeddings endpoint). Declared here, not taken from
 * config/, so search/ imports nothing above it; a WikiConfig is one.
 */
export interface SearchSettings {
  search: {
    weights: Record<LaneName, number>;
    /** Reciprocal Rank Fusion constant K. */
    k: number;
    /** Rank fusion only: minimum candidates each lane contributes. */
    pool: number;
    bm25: { k1: number; b: number };
    embedder: EmbedderSettings;
  };
  requestTimeoutMs: number;
  maxRetries: number;
  /**
   * The wiki's language (a BCP 47 tag such as `de` or `pt-BR`), when one is set: a query is
   * analysed in it as well as in every language the wiki's pages are in.
   */
  language?: string | undefined;
}

export interface EmbedderSettings {
  kind: 'builtin' | 'openai' | 'none';
  /** Model name for an OpenAI-compatible embeddings endpoint. */
  model: string;
  baseUrl?: string | undefined;
  /** Dimensions of the built-in LSA embedder. */
  dimensions: number;
  batchSize: number;
}
