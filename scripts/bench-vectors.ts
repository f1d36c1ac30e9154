import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configSchema } from '../src/config/schema.js';
import { initWorkspace } from '../src/operations/workspace/init.js';
import { engineSetup, openSearchIndex as openFileIndex, type SearchIndex } from '../src/search/index.js';
import { Database } from '../src/store/postgres/connection.js';
import { PostgresSearchIndex } from '../src/store/postgres/pg-index.js';
import { initSchema } from '../src/store/postgres/schema.js';
import { syncCheckout } from '../src/store/postgres/sync.js';
import type { Contract } from '../src/wiki/contract.js';
import { loadSchema } from '../src/wiki/schema-loader.js';
import { pgliteDatabase } from './measure/pglite-database.js';
import { ms, timed, warmMedian } from './measure/warm-search.js';
import { syntheticWiki, writeSyntheticWiki } from './measure/synthetic.js';

/**
 * Where the semantic lane's vectors are ranked (`npm run bench -- --only vectors`): warm
 * search on a synthetic wiki with the file index (vectors in memory), the Postgres store
 * with vectors as arrays (ranked in the process; WIKI_DATABASE_URL names a database whose
 * wiki_* tables it may drop), and with pgvector ranking them (PGlite's, in this process:
 * single-threaded WebAssembly, so an upper bound on what a pgvector server takes), and the
 * time the first process takes to write every page's vector.
 */
const WARM_QUERIES = 100;

/** Fill `db` from the checkout, then open the first process's index on it (which embeds and writes every vector). */
async function storeIndex(db: Database, root: string, contract: Contract, rebuild: boolean): Promise<{ index: PostgresSearchIndex; openMs: number; vectors: string }> {
  const { vectors } = await initSchema(db, { rebuild });
  await syncCheckout(db, root, contract, 'bench');
  const config = configSchema.parse({ store: { kind: 'postgres' } });
  const { semanticSetup, params } = engineSetup(root, config, { env: {} });
  const opened = await timed(() => PostgresSearchIndex.open({ root, contract, params, db, vectors, semantic: semanticSetup, rescanAfterMs: 60_000 }));
  return { index: opened.value, openMs: opened.ms, vectors };
}

export async function runVectorsBench(sizes = [10000]): Promise<void> {
  for (const size of sizes) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `wiki-bench-vectors-${size}-`));
    const opened: SearchIndex[] = [];
    try {
      const root = path.join(dir, 'wiki');
      const wiki = syntheticWiki(size);
      await initWorkspace(root);
      await writeSyntheticWiki(root, wiki);
      const schema = await loadSchema(root);
      const files = await openFileIndex(root, schema, configSchema.parse({}), { env: {}, persist: false });
      opened.push(files);
      const lines = [`  file index (vectors in memory): warm search ${ms(await warmMedian(files, wiki.queries, WARM_QUERIES))}`];
      if (process.env.WIKI_DATABASE_URL) {
        const db = await Database.connect(configSchema.parse({ store: { kind: 'postgres' } }), { WIKI_DATABASE_URL: process.env.WIKI_DATABASE_URL });
        const arrays = await storeIndex(db, root, schema.contract, true);
        opened.push(arrays.index);
        lines.push(`  Postgres, vectors: ${arrays.vectors}: warm search ${ms(await warmMedian(arrays.index, wiki.queries, WARM_QUERIES))}; first engine and its vectors ${ms(arrays.openMs)}`);
      } else lines.push('  Postgres arrays: skipped (set WIKI_DATABASE_URL to a database whose wiki_* tables the bench may drop)');
      const lite = await storeIndex(await pgliteDatabase(), root, schema.contract, false);
      opened.push(lite.index);
      lines.push(`  PGlite, vectors: ${lite.vectors}: warm search ${ms(await warmMedian(lite.index, wiki.queries, WARM_QUERIES))}; first engine and its vectors ${ms(lite.openMs)}`);
      console.log(`${size} pages, median of ${WARM_QUERIES} searches each`);
      for (const line of lines) console.log(line);
    } finally {
      for (const index of opened) await index.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  }
}

