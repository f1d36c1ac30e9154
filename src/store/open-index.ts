import { engineSetup, openSearchIndex as openFileIndex, type OpenSearchIndexOptions } from '../search/index.js';
import type { SearchSettings } from '../search/settings.js';
import type { SearchIndex } from '../search/types.js';
import type { Schema } from '../wiki/contract.js';
import type { StoreSettings } from './settings.js';

const DEFAULT_RESCAN_MS = 2000;

/**
 * The search index the configuration chose: the files under `.wiki/search/` (the default)
 * or the Postgres database every replica shares (`store.kind: postgres`). An unreachable
 * database or one without this version's schema is an error, never a fall back to files.
 */
export async function openSearchIndex(root: string, schema: Schema, config: SearchSettings & StoreSettings, options: OpenSearchIndexOptions = {}): Promise<SearchIndex> {
  if (config.store.kind !== 'postgres') return openFileIndex(root, schema, config, options);
  const [{ Database }, { checkSchema }, { checkVectors }, { PostgresSearchIndex }] = await Promise.all([
    import('./postgres/connection.js'),
    import('./postgres/schema.js'),
    import('./postgres/schema-vectors.js'),
    import('./postgres/pg-index.js'),
  ]);
  const db = await Database.connect(config, options.env ?? process.env);
  let vectors;
  try {
    await checkSchema(db);
    vectors = await checkVectors(db, config.store.vectors);
  } catch (error) {
    await db.close();
    throw error;
  }
  const { semanticSetup, params } = engineSetup(root, config, options);
  return PostgresSearchIndex.open({ root, contract: schema.contract, params, db, vectors, semantic: semanticSetup, rescanAfterMs: options.rescanAfterMs ?? DEFAULT_RESCAN_MS });
}
