import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { factsDbFile, updateFacts } from '../src/facts/extract.js';
import { FactStore } from '../src/facts/store.js';
import { initWorkspace } from '../src/operations/workspace/init.js';
import { publishFacts } from '../src/store/open-facts.js';
import { Database } from '../src/store/postgres/connection.js';
import { PostgresFactReader } from '../src/store/postgres/pg-facts.js';
import { initSchema } from '../src/store/postgres/schema.js';
import { DATABASE_URL_ENV } from '../src/store/settings.js';

/**
 * Facts in Postgres against `.wiki/facts.db` on one synthetic raw/ (SOURCES files of
 * SENTENCES sentences drawn from the English word list, seeded): the first fill (local
 * extraction; then the offer of every source to the database), the cost of a run with
 * nothing to offer (what every `wiki facts` run pays to stay in step), and `facts search`
 * medians over QUERIES two-word queries on both, with how many give the same top-10 scores
 * rank by rank (facts of equal score have no defined order in either). Needs WIKI_DATABASE_URL naming a database whose wiki_* tables it may drop.
 */
const SOURCES = 2_000;
const SENTENCES = 25;
const QUERIES = 60;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** A small seeded generator (mulberry32), so every run writes the same raw/. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await work();
  return [performance.now() - started, result];
}

export async function runStoreFactsBench(): Promise<void> {
  const url = process.env[DATABASE_URL_ENV];
  if (!url) {
    console.log(`skipped: set ${DATABASE_URL_ENV} to a database whose wiki_* tables this may drop`);
    return;
  }
  const next = random(43);
  const all = readFileSync(new URL('../../data/english-words.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((word) => /^[a-z]{4,}$/.test(word));
  // A vocabulary of 5,000 words, so a query's words recur across facts as real ones do.
  const words = Array.from({ length: 5_000 }, () => all[Math.floor(next() * all.length)]!);
  const word = (): string => words[Math.floor(next() * words.length)]!;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wiki-bench-store-facts-'));
  const root = path.join(dir, 'wiki');
  const settings = { store: { kind: 'postgres' as const, url } };
  const db = await Database.connect(settings, { [DATABASE_URL_ENV]: url });
  try {
    await initWorkspace(root);
    const sources: string[] = [];
    for (let s = 0; s < SOURCES; s++) {
      const lines = Array.from({ length: SENTENCES }, () => `The ${word()} ${word()} ${word()} near the ${word()} ${word()}.`);
      const file = `raw/source-${s}.md`;
      await writeFile(path.join(root, file), `# Source ${s}\n\n${lines.join('\n')}\n`);
      sources.push(file);
    }
    await initSchema(db, { rebuild: true });
    const [extractMs] = await time(() => updateFacts(root, sources, { grain: 'sentence', similarity: 0.9, maxSourceBytes: 10_000_000 }));
    const [offerMs, offered] = await time(() => publishFacts(root, settings, { env: { [DATABASE_URL_ENV]: url } }));
    const [stayMs] = await time(() => publishFacts(root, settings, { env: { [DATABASE_URL_ENV]: url } }));
    const local = await FactStore.open(factsDbFile(root), { readonly: true });
    const shared = new PostgresFactReader(db, [], false);
    const queries = Array.from({ length: QUERIES }, () => `${word()} ${word()}`);
    const fileMs: number[] = [];
    const databaseMs: number[] = [];
    let same = 0;
    for (const query of queries) {
      const [fileTook, fromFile] = await time(async () => local.search(query, 10));
      const [databaseTook, fromDatabase] = await time(() => shared.search(query, 10));
      fileMs.push(fileTook);
      databaseMs.push(databaseTook);
      // Facts of equal score are in no defined order in either store: a rank holds the same when its score does.
      const scores = (hits: readonly { score: number }[]): string => hits.map((hit) => hit.score.toFixed(9)).join();
      if (scores(fromFile) === scores(fromDatabase)) same++;
      else if (process.env.BENCH_SHOW_DIFFERENCES) console.log(query, scores(fromFile), '|', scores(fromDatabase));
    }
    const stats = await shared.stats();
    local.close();
    console.log(`${SOURCES} sources, ${stats.live} live facts (${SENTENCES} sentences a source)\n`);
    console.log('| local extraction (.wiki/facts.db) | first offer to the database | a run with nothing to offer | facts search median, file / Postgres | same top-10 scores |');
    console.log('| --- | --- | --- | --- | --- |');
    console.log(
      `| ${(extractMs / 1000).toFixed(1)} s | ${(offerMs / 1000).toFixed(1)} s (${offered?.accepted ?? 0} sources) | ${stayMs.toFixed(0)} ms | ${median(fileMs).toFixed(2)} / ${median(databaseMs).toFixed(2)} ms | ${same}/${QUERIES} |`,
    );
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
