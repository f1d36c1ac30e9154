import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadSettings } from '../src/config/settings.js';
import { factsDbFile, updateFacts } from '../src/facts/extract.js';
import { ServedPages } from '../src/wiki/served-pages.js';
import { servedSearch } from '../src/mcp/served-search.js';
import { initWorkspace } from '../src/operations/workspace/init.js';
import { lintWorkspace } from '../src/operations/lint/lint.js';
import { groundingCachePath } from '../src/operations/lint/grounding-cache.js';
import { surfacedSearch } from '../src/operations/inspect/search.js';
import { openSearchIndex } from '../src/search/index.js';
import { syntheticWiki, writeSyntheticWiki, type SyntheticPage } from './measure/synthetic.js';
import { visibilityLevels } from '../src/wiki/access.js';
import { PageIndex } from '../src/wiki/page-index.js';
import { loadPages } from '../src/wiki/pages.js';

/**
 * Two costs on a 10k-page wiki, each beside its baseline measured in the same run:
 * - who-sees-what filtering: `wiki search`'s filter (`surfacedSearch`: never pages, other
 *   users' scopes, link lists) and MCP's (`servedSearch` under the visibility cap) against
 *   the index's own search, on a wiki where one page in ten is `never` and one in seven
 *   `private`, medians over the queries;
 * - `wiki lint` with `.wiki/facts.db` (grounding every page against its sources' facts)
 *   against the same lint without it, medians of three runs each, alternating: with no
 *   grounding result kept from an earlier lint (cold), and with every page unchanged since.
 */
const PAGES = 10_000;
const QUERIES = 60;
const LINT_RUNS = 3;
const RAW_SOURCES = 1_000;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const ms = (value: number): string => `${value >= 100 ? value.toFixed(0) : value.toFixed(2)} ms`;

async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await work();
  return [performance.now() - started, result];
}

/** One page in ten `never`, one in seven `private`: frontmatter lines after the title. */
function withAccess(pages: SyntheticPage[]): SyntheticPage[] {
  return pages.map((page, i) => {
    const marks = [i % 10 === 3 ? 'usage_mode: never' : '', i % 7 === 5 ? 'visibility: private' : ''].filter(Boolean);
    return marks.length ? { ...page, content: page.content.replace(/^---\n/, `---\n${marks.join('\n')}\n`) } : page;
  });
}

export async function runAccessBench(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wiki-bench-access-'));
  const root = path.join(dir, 'wiki');
  try {
    const wiki = syntheticWiki(PAGES);
    await initWorkspace(root);
    await writeSyntheticWiki(root, { ...wiki, pages: withAccess(wiki.pages) });
    const { schema, config } = await loadSettings(root);
    const index = await openSearchIndex(root, schema, config.config, { rescanAfterMs: 60_000 });
    const pageIndex = PageIndex.fromPages(await loadPages(root, schema.contract), schema.contract);
    const maxRank = visibilityLevels(schema.contract).levels.indexOf('internal');
    const raw: number[] = [];
    const surfaced: number[] = [];
    const served: number[] = [];
    const queries = wiki.queries.slice(0, QUERIES);
    for (const query of queries) await index.search(query, { limit: 10 }); // warm up
    for (const query of queries) {
      raw.push((await time(() => index.search(query, { limit: 10 })))[0]);
      surfaced.push((await time(() => surfacedSearch(root, schema, index, query, { limit: 10 }, undefined)))[0]);
      const view = new ServedPages(pageIndex, schema.contract, { maxRank });
      served.push((await time(() => servedSearch(index, view, query, 10, { servedVersion: () => undefined })))[0]);
    }
    await index.close();
    const [base, cli, mcp] = [median(raw), median(surfaced), median(served)];
    console.log(`${PAGES} pages (1 in 10 never, 1 in 7 private), median of ${QUERIES} queries, limit 10:`);
    console.log(`  index search alone                   ${ms(base)}`);
    console.log(`  wiki search filter (surfacedSearch)  ${ms(cli)}  (+${ms(cli - base)}, ${(cli / base).toFixed(2)}×)`);
    console.log(`  MCP filter at cap internal           ${ms(mcp)}  (+${ms(mcp - base)}, ${(mcp / base).toFixed(2)}×)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each page cites one of RAW_SOURCES raw files made of the first paragraphs of the pages citing it. */
async function wikiWithSources(root: string): Promise<string[]> {
  const wiki = syntheticWiki(PAGES);
  const texts = new Map<number, string[]>();
  const pages = wiki.pages.map((page, i) => {
    const source = i % RAW_SOURCES;
    const body = page.content.split('\n---\n')[1] ?? '';
    const paragraph = body.split('\n\n').find((part) => /^[A-Z]/.test(part.trim())) ?? '';
    texts.set(source, [...(texts.get(source) ?? []), paragraph.trim()]);
    return { ...page, content: page.content.replace(/^---\n/, `---\nsources:\n  - raw/source-${source}.md\n`) };
  });
  await writeSyntheticWiki(root, { ...wiki, pages });
  await mkdir(path.join(root, 'raw'), { recursive: true });
  const sources: string[] = [];
  for (const [source, paragraphs] of texts) {
    await writeFile(path.join(root, 'raw', `source-${source}.md`), `# Source ${source}\n\n${paragraphs.join('\n\n')}\n`);
    sources.push(`raw/source-${source}.md`);
  }
  return sources;
}

export async function runLintFactsBench(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wiki-bench-lint-facts-'));
  const root = path.join(dir, 'wiki');
  try {
    await initWorkspace(root);
    const sources = await wikiWithSources(root);
    const { schema, config } = await loadSettings(root);
    const { grain, similarity, maxSourceBytes } = config.config.facts;
    const [extractMs, extracted] = await time(() => updateFacts(root, sources, { grain, similarity, maxSourceBytes }));
    const db = factsDbFile(root);
    const aside = `${db}.aside`;
    const lint = async (): Promise<number> => (await time(() => lintWorkspace(root, schema, config.config, { fix: false })))[0];
    // Cold: no page's result kept from an earlier lint (a first lint, or every page changed); warm: nothing changed since the last lint.
    const cold = async (): Promise<number> => {
      await rm(groundingCachePath(root), { force: true });
      return lint();
    };
    await lint(); // warm up
    const withFacts: number[] = [];
    const warm: number[] = [];
    const without: number[] = [];
    for (let run = 0; run < LINT_RUNS; run++) {
      withFacts.push(await cold());
      warm.push(await lint());
      await rename(db, aside);
      without.push(await lint());
      await rename(aside, db);
    }
    const report = await lintWorkspace(root, schema, config.config, { fix: false });
    const groundedPages = report.grounding?.length ?? 0;
    const [on, hot, off] = [median(withFacts), median(warm), median(without)];
    console.log(`${PAGES} pages citing ${sources.length} raw sources (${extracted.facts.inserted} facts, extracted in ${ms(extractMs)}):`);
    console.log(`  lint without facts.db              ${ms(off)}   (runs: ${without.map(ms).join(', ')})`);
    console.log(`  lint with facts.db, cache cold     ${ms(on)}   (runs: ${withFacts.map(ms).join(', ')}; ${groundedPages} pages grounded)`);
    console.log(`  lint with facts.db, pages unchanged ${ms(hot)}   (runs: ${warm.map(ms).join(', ')}; results of .wiki/cache/grounding.json reused)`);
    console.log(`  ratio cold                         ${(on / off).toFixed(2)}× (target ≤ 2×)`);
    console.log(`  ratio pages unchanged              ${(hot / off).toFixed(2)}×`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
