import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { configSchema } from '../../src/config/schema.js';
import { listPagePaths } from '../../src/wiki/pages.js';
import { loadSchema } from '../../src/wiki/schema-loader.js';
import { pageDocument, type PageDocument } from '../../src/search/text/document.js';
import { openSearchIndex } from '../../src/search/index.js';
import { DEFAULT_TUNING } from '../../src/search/fusion/tuning.js';

/**
 * The measurements behind `npm run bench`, one system per process so peak memory is the
 * system's own: the hybrid index, and raw lexical-only MiniSearch (its own tokenizer, its
 * own JSON persistence) over the same pages.
 */
export interface Timing {
  wallMs: number;
  cpuMs: number;
}

export interface BenchResult {
  system: 'hybrid' | 'minisearch';
  pages: number;
  build: Timing;
  /** Writing the index to disk (hybrid: included in build; reported apart too). */
  save: Timing;
  load: Timing;
  queryP50Ms: number;
  queryP95Ms: number;
  updateP50Ms: number;
  updateMaxMs: number;
  /** A rescan that finds nothing changed (hybrid only). */
  rescanMs?: number;
  indexBytes: number;
  peakRssMb: number;
}

const UPDATES = 20;
const WARMUP = 20;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; timing: Timing }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, timing: { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 } };
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Pages to edit for the update measurement: spread evenly over the wiki. */
async function pagesToEdit(root: string): Promise<string[]> {
  const paths = (await listPagePaths(root)).filter((p) => !p.endsWith('/index.md') && !p.endsWith('/log.md'));
  const step = Math.max(1, Math.floor(paths.length / UPDATES));
  return paths.filter((_, i) => i % step === 0).slice(0, UPDATES);
}

function edited(content: string, n: number): string {
  return `${content}\nEdited in the benchmark, change ${n}: a new closing remark about glider thermals.\n`;
}

export async function benchHybrid(root: string, queries: readonly string[]): Promise<BenchResult> {
  const schema = await loadSchema(root);
  const config = configSchema.parse({});
  const file = path.join(root, '.wiki', 'search', 'index.bin');
  const build = await timed(() => openSearchIndex(root, schema, config, { env: {}, rescanAfterMs: Infinity }));
  await build.value.close();
  const save = await timed(async () => {
    const index = build.value;
    await index.upsertPage('wiki/concepts/bench-save-probe.md', '---\ntitle: Probe\nsummary: probe\n---\nprobe\n');
    await index.removePage('wiki/concepts/bench-save-probe.md');
    await index.close();
  });
  const load = await timed(() => openSearchIndex(root, schema, config, { env: {}, rescanAfterMs: Infinity }));
  const index = load.value;
  for (const query of queries.slice(0, WARMUP)) await index.search(query);
  const samples: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await index.search(query);
    samples.push(performance.now() - started);
  }
  const rescan = await timed(() => index.refresh());
  const updates: number[] = [];
  let n = 0;
  for (const pagePath of await pagesToEdit(root)) {
    const content = edited(await readFile(path.join(root, pagePath), 'utf8'), n++);
    await writeFile(path.join(root, pagePath), content);
    const started = performance.now();
    await index.upsertPage(pagePath, content);
    updates.push(performance.now() - started);
  }
  await index.close();
  return {
    system: 'hybrid',
    pages: index.info().pages,
    build: build.timing,
    save: save.timing,
    load: load.timing,
    queryP50Ms: percentile(samples, 50),
    queryP95Ms: percentile(samples, 95),
    updateP50Ms: percentile(updates, 50),
    updateMaxMs: Math.max(...updates),
    rescanMs: rescan.timing.wallMs,
    indexBytes: (await stat(file)).size,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

const FIELDS = ['key', 'title', 'summary', 'tags', 'body'];

function rawEntry(doc: PageDocument): Record<string, string> {
  return { id: doc.path, key: doc.key, title: doc.title, summary: doc.summary, tags: doc.tags.join(' '), body: doc.body };
}

/** Raw MiniSearch: default tokenizer and lower-casing, no stemming, JSON persistence. */
export async function benchMiniSearch(root: string, queries: readonly string[]): Promise<BenchResult> {
  const file = path.join(root, '.wiki', 'bench-minisearch.json');
  const options = { fields: FIELDS, searchOptions: { boost: DEFAULT_TUNING.lexical.boosts } };
  const build = await timed(async () => {
    const index = new MiniSearch(options);
    const paths = await listPagePaths(root);
    for (const pagePath of paths) index.add(rawEntry(pageDocument(pagePath, await readFile(path.join(root, pagePath), 'utf8'))));
    return index;
  });
  const save = await timed(() => writeFile(file, JSON.stringify(build.value)));
  const load = await timed(async () => MiniSearch.loadJSON(await readFile(file, 'utf8'), options));
  const index = load.value;
  for (const query of queries.slice(0, WARMUP)) index.search(query).slice(0, 10);
  const samples: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    index.search(query).slice(0, 10);
    samples.push(performance.now() - started);
  }
  const updates: number[] = [];
  let n = 0;
  for (const pagePath of await pagesToEdit(root)) {
    const content = edited(await readFile(path.join(root, pagePath), 'utf8'), n++);
    const started = performance.now();
    index.discard(pagePath);
    index.add(rawEntry(pageDocument(pagePath, content)));
    updates.push(performance.now() - started);
  }
  return {
    system: 'minisearch',
    pages: index.documentCount,
    build: build.timing,
    save: save.timing,
    load: load.timing,
    queryP50Ms: percentile(samples, 50),
    queryP95Ms: percentile(samples, 95),
    updateP50Ms: percentile(updates, 50),
    updateMaxMs: Math.max(...updates),
    indexBytes: (await stat(file)).size,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}
