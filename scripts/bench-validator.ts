import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Contract } from '../src/wiki/contract.js';
import { contractSchema } from '../src/wiki/contract-schema.js';
import { PageIndex } from '../src/wiki/page-index.js';
import { parsePage, serialisePage, type Page } from '../src/wiki/page.js';
import { validateWrite } from '../src/wiki/validate-write.js';
import { validateWiki } from '../src/wiki/validate/index.js';

/**
 * Validator timings on a generated wiki: full `validateWiki` over 10k pages (target ≤ 2 s)
 * and single `validateWrite` calls against the same wiki (target ≤ 5 ms each).
 */

const PAGE_COUNT = 10_000;
const WRITE_CALLS = 200;
const WARM_UP_CALLS = 20;

const contract: Contract = contractSchema.parse({
  version: 1,
  key_pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
  index: 'wiki/index.md',
  log: 'wiki/log.md',
  required: ['title', 'summary'],
  types: {
    source: { folder: 'wiki/sources', required: ['sources'] },
    concept: { folder: 'wiki/concepts' },
    entity: { folder: 'wiki/entities' },
  },
});

/** Small deterministic PRNG (mulberry32), so every run measures the same wiki. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONSONANTS = 'bcdfghjklmnprstvwxz';
const VOWELS = 'aeiouy';

/** Pronounceable made-up words over the whole alphabet, 3–10 letters: key-like without being English. */
function makeVocabulary(random: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const length = 3 + Math.floor(random() * 8);
    let word = '';
    for (let i = 0; i < length; i++) {
      const letters = i % 2 === 0 ? CONSONANTS : VOWELS;
      word += letters[Math.floor(random() * letters.length)] ?? 'a';
    }
    words.add(word);
  }
  return [...words];
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('empty list');
  return item;
}

/** A link target that misses: a plural, a one-letter typo, or a page the writer only imagined. */
function brokenVariant(random: () => number, target: string, vocabulary: string[]): string {
  const kind = Math.floor(random() * 3);
  if (kind === 0) return `${target}s`;
  if (kind === 1) {
    const at = 1 + Math.floor(random() * (target.length - 2));
    return `${target.slice(0, at)}${target[at] === 'q' ? 'k' : 'q'}${target.slice(at + 1)}`;
  }
  return `${pick(random, vocabulary)}-${pick(random, vocabulary)}-${pick(random, vocabulary)}`;
}

export interface SyntheticWiki {
  pages: Page[];
  rawFiles: Set<string>;
  indexText: string;
  logText: string;
}

/** A wiki of `count` pages: refs, inline links (about 1% broken, see brokenVariant), sources (about 1% missing). */
export function generateWiki(count: number, seed = 42): SyntheticWiki {
  const random = rng(seed);
  const vocabulary = makeVocabulary(random, 2000);
  const keys = new Set<string>();
  while (keys.size < count) keys.add(`${pick(random, vocabulary)}-${pick(random, vocabulary)}${random() < 0.3 ? `-${pick(random, vocabulary)}` : ''}`);
  const keyList = [...keys];
  const folders = ['wiki/sources', 'wiki/concepts', 'wiki/concepts', 'wiki/entities'];
  const rawFiles = new Set<string>();
  for (let i = 0; i < count / 4; i++) rawFiles.add(`raw/doc-${i}.md`);
  const rawList = [...rawFiles];
  const pages: Page[] = keyList.map((key, i) => {
    const folder = folders[i % folders.length] ?? 'wiki/concepts';
    const refs = [pick(random, keyList), pick(random, keyList), pick(random, keyList)];
    const sources = [random() < 0.01 ? 'raw/missing.md' : pick(random, rawList)];
    const links = Array.from({ length: 5 }, () => {
      const target = pick(random, keyList);
      return random() < 0.01 ? `[[${brokenVariant(random, target, vocabulary)}]]` : `[[${target}]]`;
    });
    const body = `\n${key.replace(/-/g, ' ')} is described here with ${links[0]} and ${links[1]}.\n\n## Details\n\nSee ${links[2]}, ${links[3]} and ${links[4]} for the rest.\n`;
    const text = serialisePage(
      { title: key.replace(/-/g, ' '), summary: `Synthetic page ${i}.`, tags: ['bench'], refs, sources, created: '2026-01-01', updated: '2026-01-02' },
      body,
    );
    return parsePage(`${folder}/${key}.md`, text, contract);
  });
  const indexText = `---\ntitle: Index\nsummary: Catalog.\n---\n\n<!-- wiki:catalog:start -->\n${keyList.map((k) => `- [[${k}]] — x`).join('\n')}\n<!-- wiki:catalog:end -->\n`;
  const logText = '# Log\n\n## [2026-01-01] init | workspace created\n';
  return { pages, rawFiles, indexText, logText };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runValidatorBench(): Promise<void> {
  const wiki = generateWiki(PAGE_COUNT);
  const rawExists = (p: string): boolean => wiki.rawFiles.has(p);

  validateWiki({ pages: wiki.pages.slice(0, 500), contract, indexText: wiki.indexText, logText: wiki.logText, rawExists }); // warm-up
  const fullStart = performance.now();
  const fullCpuStart = process.cpuUsage();
  const findings = validateWiki({ pages: wiki.pages, contract, indexText: wiki.indexText, logText: wiki.logText, rawExists });
  const fullMs = performance.now() - fullStart;
  const fullCpu = process.cpuUsage(fullCpuStart);

  const buildStart = performance.now();
  const index = PageIndex.fromPages(wiki.pages, contract);
  const buildMs = performance.now() - buildStart;

  const random = rng(7);
  const keys = index.keys();
  const times: number[] = [];
  let rejected = 0;
  // The first calls pay for JIT compilation; they are run but not timed.
  for (let i = -WARM_UP_CALLS; i < WRITE_CALLS; i++) {
    const existing = wiki.pages[Math.floor(random() * wiki.pages.length)];
    if (!existing) continue;
    const isNew = i % 2 === 0;
    const key = isNew ? `${existing.key}-notes-${i}` : existing.key;
    const target = pick(random, keys);
    const link = Math.abs(i) % 10 === 0 ? `[[${target}x]]` : `[[${target}]]`;
    const content = serialisePage(
      { title: `Page ${key}`, summary: 'Written by the bench.', refs: [pick(random, keys)], sources: ['raw/doc-1.md'] },
      `\nA body that links to ${link} and [[${pick(random, keys)}]].\n`,
    );
    const start = performance.now();
    const result = validateWrite(index, { path: `wiki/concepts/${key}.md`, content }, { contract, rawExists });
    if (i < 0) continue;
    times.push(performance.now() - start);
    if (!result.ok) rejected++;
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;

  const rows: Array<[string, string, string]> = [
    ['full validateWiki, 10k pages', `${fullMs.toFixed(0)} ms`, '≤ 2000 ms'],
    // CPU time of the process (all threads, GC included): a steadier figure on a busy machine.
    ['  same, process CPU time', `${((fullCpu.user + fullCpu.system) / 1000).toFixed(0)} ms`, ''],
    ['PageIndex.fromPages, 10k pages', `${buildMs.toFixed(0)} ms`, ''],
    [`validateWrite mean (${WRITE_CALLS} calls)`, `${mean.toFixed(3)} ms`, '≤ 5 ms'],
    ['validateWrite p95', `${percentile(times, 95).toFixed(3)} ms`, '≤ 5 ms'],
    ['validateWrite max', `${(times[times.length - 1] ?? 0).toFixed(3)} ms`, ''],
  ];
  console.log(`validator bench: ${PAGE_COUNT} pages, ${findings.length} findings, ${rejected}/${WRITE_CALLS} writes rejected`);
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [name, value, target] of rows) console.log(`  ${name.padEnd(width)}  ${value.padStart(10)}  ${target}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runValidatorBench();
}
