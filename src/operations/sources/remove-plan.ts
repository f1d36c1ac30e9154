import { claimsOf } from '../../facts/claims.js';
import { splitFrontmatter } from '../../wiki/frontmatter-split.js';
import type { Page } from '../../wiki/page.js';
import { sourcesOf } from '../../wiki/page.js';
import { citationsOf } from '../../wiki/validate/citation-rules.js';

/** What removing sources does to one page that draws on them. */
export type PageFate =
  /** Drew only on removed sources: deleted. */
  | { kind: 'remove'; page: string }
  /** Drew only on removed sources but holds a person's lines: kept, archived, reported. */
  | { kind: 'keep-human'; page: string }
  /** Draws on other sources too: loses the removed ones; sentences citing only them listed (or pruned). */
  | { kind: 'trim'; page: string; unsupported: Array<{ line: number; sentence: string }> };

const fileOf = (entry: string): string => (entry.split('#')[0] ?? '').trim();

/** The sources a page draws on: its `sources` and the files its from-comments cite. */
export function sourcesDrawnOn(page: Page): Set<string> {
  return new Set([...sourcesOf(page.frontmatter).map(fileOf), ...citationsOf(page).map((citation) => fileOf(citation.file))].filter((file) => file.startsWith('raw/')));
}

/** The fate of `page` when `removed` go; undefined when it draws on none of them. */
export function pageFate(page: Page, pageText: string, removed: ReadonlySet<string>, holdsHumanLines: boolean): PageFate | undefined {
  const drawn = sourcesDrawnOn(page);
  if (![...drawn].some((source) => removed.has(source))) return undefined;
  const others = [...drawn].filter((source) => !removed.has(source));
  if (others.length === 0) return holdsHumanLines ? { kind: 'keep-human', page: page.path } : { kind: 'remove', page: page.path };
  const { body, bodyLine } = splitFrontmatter(pageText);
  const unsupported = claimsOf(body)
    .filter((claim) => claim.citations.length > 0 && claim.citations.every((citation) => removed.has(fileOf(citation.file))))
    .map((claim) => ({ line: bodyLine + claim.line - 1, sentence: claim.text }));
  return { kind: 'trim', page: page.path, unsupported };
}
