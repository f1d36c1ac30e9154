import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configSchema } from '../src/config/schema.js';
import { initWorkspace } from '../src/operations/workspace/init.js';
import { openSearchIndex as openFileIndex, type SearchIndex } from '../src/search/index.js';
import { openSearchIndex } from '../src/store/open-index.js';
import { Database } from '../src/store/postgres/connection.js';
import type { PostgresSearchIndex } from '../src/store/postgres/pg-index.js';
import { initSchema } from '../src/store/postgres/schema.js';
import { syncCheckout } from '../src/store/postgres/sync.js';
import { loadSchema } from '../src/wiki/schema-loader.js';
import { ms, timed, warmMedian } from './measure/warm-search.js';
import { syntheticWiki, writeSyntheticWiki } from './measure/synthetic.js';
import { runServeReplicas } from './bench-store-serve.js';

/**
 * The Postgres store against the file index (`npm run bench -- --only store`, with
 * WIKI_DATABASE_URL naming a database whose wiki_* tables it may drop): on a synthetic wiki,
 * the file index's build beside `wiki store sync` and the first engine built from the rows;
 * warm search medians of both in this process; then three `wiki serve` processes on their own
 * clones and a writer process on one database (bench-store-serve.ts).
 */
const WARM_QUERIES = 200;

export async function runStoreBench(sizes = [10000]): Promise<void> {
  if (!process.env.WIKI_DATABASE_URL) {
    console.log('skipped: set WIKI_DATABASE_URL to a database whose wiki_* tables the bench may drop');
    return;
  }
  const env = { WIKI_DATABASE_URL: process.env.WIKI_DATABASE_URL };
  const filesConfig = configSchema.parse({});
  const pgConfig = configSchema.parse({ store: { kind: 'postgres' } });
  for (const size of sizes) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `wiki-bench-store-${size}-`));
    const opened: SearchIndex[] = [];
    try {
      const root = path.join(dir, 'writer');
      const wiki = syntheticWiki(size);
      await initWorkspace(root);
      await writeSyntheticWiki(root, wiki);
      const schema = await loadSchema(root);
      const db = await Database.connect(pgConfig, env);
      await initSchema(db, { rebuild: true });
      const files = await timed(() => openFileIndex(root, schema, filesConfig, { env: {}, persist: false }));
      opened.push(files.value);
      const sync = await timed(() => syncCheckout(db, root, schema.contract, 'bench'));
      await db.close();
      // The first process on the database builds its engine from the rows and keeps it there.
      const first = await timed(() => openSearchIndex(root, schema, pgConfig, { env, rescanAfterMs: 60_000 }));
      const writer = first.value as PostgresSearchIndex;
      opened.push(writer);
      const filesWarm = await warmMedian(files.value, wiki.queries, WARM_QUERIES);
      const pgWarm = await warmMedian(writer, wiki.queries, WARM_QUERIES);
      for (const index of opened.splice(0)) await index.close();
      const replicas = await runServeReplicas(root, dir, wiki.queries, env.WIKI_DATABASE_URL);
      console.log(`${size} pages`);
      console.log(`  build: file index ${ms(files.ms)}; wiki store sync's rows ${ms(sync.ms)} (${sync.value.accepted} written), the first process's engine from them ${ms(first.ms)} (kept in the database)`);
      console.log(`  warm search in the process, median of ${WARM_QUERIES}: file index ${ms(filesWarm)}; Postgres ${ms(pgWarm)}`);
      for (const line of replicas) console.log(line);
    } finally {
      for (const index of opened) await index.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  }
}
