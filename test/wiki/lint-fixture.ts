import { readFileSync } from 'node:fs';
import { replaceCatalog } from '../../src/wiki/catalog-region.js';
import { renderCatalog } from '../../src/wiki/index-catalog.js';
import { parsePage, type Page } from '../../src/wiki/page.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';
import { validateWiki, type Finding } from '../../src/wiki/validate/index.js';

/** The contract of a freshly initialised workspace. */
export const schema = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8'));
export const contract = schema.contract;
export const INDEX_TEMPLATE = readFileSync(new URL('../../templates/index.md', import.meta.url), 'utf8');

export function page(fields: Record<string, string>, body: string): string {
  const yaml = Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  return `---\n${yaml}\n---\n\n${body}\n`;
}

/** A small healthy wiki: every rule passes on it. Files by workspace-relative path. */
export function healthyWiki(): Record<string, string> {
  return {
    'wiki/sources/attention-paper.md': page(
      { title: 'Attention Is All You Need', summary: 'The paper that introduced the transformer.', refs: '[transformer]', sources: '[raw/attention.md]' },
      'Vaswani et al. (2017) propose the [[transformer]].',
    ),
    'wiki/concepts/transformer.md': page(
      { title: 'Transformer', summary: 'A sequence model built from attention.', refs: '[attention-paper, google-brain]', sources: '[raw/attention.md]' },
      'Introduced in [[attention-paper]]; see also [[google-brain|Google Brain]].',
    ),
    'wiki/entities/google-brain.md': page(
      { title: 'Google Brain', summary: 'A research team at Google.', refs: '[transformer]', sources: '[raw/attention.md]' },
      'Authors of the [[transformer]] paper.',
    ),
    'wiki/log.md': '---\ntitle: Log\nsummary: Chronology.\n---\n\n# Log\n\n## [2026-01-31] init | workspace created\n',
  };
}

export const RAW_FILES = new Set(['raw/attention.md']);

/** index.md with a catalog generated from the content pages of `files`. */
export function indexFor(files: Record<string, string>): string {
  const pages = Object.entries(files).map(([p, text]) => parsePage(p, text, contract));
  return replaceCatalog(INDEX_TEMPLATE, renderCatalog({ pages, contract, hubThreshold: 300 }).catalog);
}

/**
 * Validate `files` (a null value deletes a file). Unless `index` is given, index.md is
 * generated so every page is listed.
 */
export function lint(files: Record<string, string | null>, options: { index?: string | null } = {}): Finding[] {
  const present = Object.fromEntries(Object.entries(files).filter((e): e is [string, string] => e[1] !== null));
  const indexText = options.index === undefined ? indexFor(present) : (options.index ?? undefined);
  const all = { ...present };
  if (indexText !== undefined) all['wiki/index.md'] = indexText;
  const pages: Page[] = Object.entries(all).map(([p, text]) => parsePage(p, text, contract));
  return validateWiki({
    pages,
    contract,
    indexText,
    logText: all['wiki/log.md'],
    rawExists: (rawPath) => RAW_FILES.has(rawPath),
  });
}
