import type { Fact, FactHit, FactStats } from './store-schema.js';
import type { FactStore } from './store.js';

/**
 * What `wiki facts search|show|stats` and `query --facts` read facts through: the local
 * store (`.wiki/facts.db`) or the database every replica shares (`store.kind: postgres`,
 * store/postgres/pg-facts.ts). Grounding and read_file's fact ids read the local store
 * only: they need the checkout's raw/ files anyway.
 */
export interface FactReader {
  /** Where the facts are read from, as `facts stats` and `wiki status` say it. */
  readonly where: string;
  /** Live facts matching `query` by BM25, best first. */
  search(query: string, limit: number): Promise<FactHit[]>;
  /** Every live fact stated by one of `sources`. */
  factsOfSources(sources: readonly string[]): Promise<FactHit[]>;
  get(id: string): Promise<Fact | undefined>;
  stats(): Promise<FactStats>;
  close(): Promise<void>;
}

/** The local store as a FactReader. */
export function localFactReader(store: FactStore): FactReader {
  return {
    where: '.wiki/facts.db',
    search: async (query, limit) => store.search(query, limit),
    factsOfSources: async (sources) => store.factsOfSources(sources),
    get: async (id) => store.get(id),
    stats: async () => store.stats(),
    close: async () => store.close(),
  };
}
