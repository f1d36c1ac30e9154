/** Public shapes of the search module (what `wiki search --json` and `search_wiki` return). */

export const LANES = ['lexical', 'semantic', 'token'] as const;
export type LaneName = (typeof LANES)[number];

/** `ok`, `skipped: <reason>` or `failed: <reason>`. */
export type LaneStatus = 'ok' | `skipped: ${string}` | `failed: ${string}`;

/** Whether a hit is strongly about the query: it holds the query's words and names them where it says what it is about. */
export type HitStrength = 'strong' | 'weak';

export interface SearchResult {
  key: string;
  path: string;
  title: string;
  summary: string;
  /**
   * Fused score over the lanes that ranked this page: Σ weight × the lane's score (lexical
   * and token scaled to [0, 1] over their hits, semantic the cosine); with rank fusion,
   * Σ weight / (K + rank).
   */
  score: number;
  /** Lane → 1-based rank in that lane, for the lanes that ranked this page. */
  lanes: Partial<Record<LaneName, number>>;
  /** Lane → its share of `score`. */
  contributions?: Partial<Record<LaneName, number>>;
  /** A short passage of the page around the query's words. */
  snippet: string;
  /** How strongly the page is about the query (see search/strength.ts); absent when snippets are off. */
  strength?: HitStrength;
  /** The score as a share of the best hit's (1 for the best); absent when snippets are off. */
  relative?: number;
  /** Keys this page links to (refs and inline links). */
  links: string[];
  /** Keys of the pages that link to this page. */
  backlinks: string[];
}

export interface SearchResponse {
  query: string;
  results: SearchResult[];
  lanes: Record<LaneName, LaneStatus>;
  /** The weight fusion gave each lane: as configured, the semantic one times `semanticWeightFactor`. */
  weights: Record<LaneName, number>;
  /**
   * What the configured semantic weight was multiplied by: under the built-in embedder, a
   * factor from how well the lane finds this wiki's pages (measured when it trains); else 1.
   */
  semanticWeightFactor: number;
  /**
   * The quoted phrases of the query when no page the caller may see holds them as written:
   * the results are then the pages holding their words (see searchWithPhraseFallback).
   */
  phrasesNotFound?: string[];
}

/** What a search port answers (the model's search_wiki): the hits, and the quoted phrases no page holds. */
export interface SearchHits {
  results: readonly SearchResult[];
  phrasesNotFound?: readonly string[];
}

export interface SearchOptions {
  /** How many results (default 10). */
  limit?: number;
  /** Read each result's page for a snippet (default true); bulk evaluation turns it off. */
  snippets?: boolean;
  /** Leave out results whose fused score is below this. */
  minScore?: number;
  /**
   * Read `"phrases"` and `-exclusions` in the query (default true). The eval turns it off:
   * its queries are requests in prose whose quotes cite titles ("-dash" is Cranfield's dash).
   */
  syntax?: boolean;
  /** Rank and filter by quoted phrases' words, not the phrases as written (see searchWithPhraseFallback). */
  phrasesAsWords?: boolean;
  /**
   * How the search reads a page's current text (default: `readPage` under the index's root).
   * A caller that reads the same pages (to check who may see them) passes one reader that
   * keeps what it read (`readingEachOnce`), so each page is read once; it is used as given.
   */
  readPage?: (pagePath: string) => string | undefined;
  /**
   * The caller judges who may see each hit on the version of the page it serves (the MCP
   * tools): the content hash of that version, undefined for a page it does not serve. An
   * index whose pages may differ from it (the database store) returns only hits whose
   * indexed version is that one, so no hit is judged by one version and shown from another.
   * The file index is its checkout's and needs nothing.
   */
  servedVersion?: (pagePath: string) => string | undefined;
}

export interface SearchIndexInfo {
  /** Where the index is persisted. */
  file: string;
  /** Pages indexed (index and log are not). */
  pages: number;
  /** The lanes and how each is set up (a lane's status from its last use, or its configuration). */
  lanes: Record<LaneName, LaneStatus>;
  /** What the semantic lane embeds with, e.g. `builtin-lsa (128 dimensions)`; undefined when off. */
  embedder: string | undefined;
  /** When the index was built from scratch, ISO time. */
  builtAt: string;
  /** When the index last changed, ISO time. */
  updatedAt: string;
  /** When the index was last written to disk, ISO time; undefined when never. */
  savedAt: string | undefined;
  /** Pages the last scan left out because each has more than one hard link (never indexed). */
  hardLinked: string[];
}

export interface RefreshSummary {
  added: number;
  changed: number;
  removed: number;
}

/**
 * The search index of a workspace (ARCHITECTURE §5): open it, search it, tell it about
 * pages written through the tools, close it to flush. The files under wiki/ are the
 * truth; the index in `.wiki/search/` is a cache of them that is brought up to date on
 * open and before searches, and rebuilt whenever it is missing, stale or unreadable.
 */
export interface SearchIndex {
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /** Index a page just written (content as written); persisted shortly after and on close. */
  upsertPage(path: string, content: string): Promise<void>;
  removePage(path: string): Promise<void>;
  /** Bring the index in line with the files (mtime/size, hash on doubt). */
  refresh(): Promise<RefreshSummary>;
  info(): SearchIndexInfo;
  /** The paths of the indexed pages with each of `keys` (a key no page has maps to none). */
  pathsOf(keys: readonly string[]): Map<string, string[]>;
  /**
   * Whether the page's frontmatter, as the index last read it, lets it be surfaced (not
   * `usage_mode: never`); undefined for a page the index does not hold or whose file may
   * have changed since (its stat does not prove it unchanged): then the caller reads it.
   */
  surfacedAsIndexed(pagePath: string): boolean | undefined;
  /** Persist pending changes. */
  close(): Promise<void>;
}
