import { claimsOf } from '../../facts/claims.js';
import { withoutListEntry, withScalarField } from '../../wiki/frontmatter-lines.js';
import { splitFrontmatter } from '../../wiki/frontmatter-split.js';
import { unlinkKeys } from '../../wiki/link-rewrite.js';
import { targetToKey } from '../../wiki/links.js';
import type { PageFate } from './remove-plan.js';

const fileOf = (entry: string): string => (entry.split('#')[0] ?? '').trim();
const FROM_COMMENT = /[ \t]*<!--\s*from:\s*([^\s#>]+)(#[^\s>]*)?\s*-->/g;

/**
 * One page's text after sources are removed: a page kept for a person's lines is only
 * archived (its text, sources and citations stay as the record of where it came from); a
 * page drawing on other sources too loses the removed ones from `sources` and its citations
 * of them (with `prune`, the lines whose every sentence cited only them); every page's links
 * to removed pages become plain text and leave `refs`.
 */
export function editsForRemoval(
  text: string,
  removed: ReadonlySet<string>,
  goneKeys: ReadonlySet<string>,
  titleOf: (key: string) => string,
  options: { fate: PageFate | undefined; prune: boolean; today: string },
): { text: string; unlinked: number; pruned: number } {
  let next = text;
  let pruned = 0;
  if (options.fate?.kind === 'keep-human') next = withScalarField(next, 'archived_since', options.today);
  if (options.fate?.kind === 'trim') {
    next = withoutListEntry(next, 'sources', (entry) => removed.has(fileOf(entry)));
    if (options.prune) ({ text: next, pruned } = pruneUnsupported(next, removed));
    next = withoutCitations(next, removed);
  }
  next = withoutListEntry(next, 'refs', (entry) => goneKeys.has(targetToKey(entry.replace(/^\[\[|\]\]$/g, '').split('|')[0] ?? '')));
  const { yaml, body } = splitFrontmatter(next);
  const head = yaml === undefined ? '' : next.slice(0, next.length - body.length);
  const unlinked = unlinkKeys(body, goneKeys, titleOf);
  return { text: head + unlinked.body, unlinked: unlinked.unlinked, pruned };
}

/** The body without its from-comments citing removed sources (the frontmatter is left to the list edit). */
function withoutCitations(text: string, removed: ReadonlySet<string>): string {
  const { body } = splitFrontmatter(text);
  const head = text.slice(0, text.length - body.length);
  return head + body.replace(FROM_COMMENT, (comment, file: string) => (removed.has(fileOf(file)) ? '' : comment));
}

/** Lines whose every claim cites only removed sources, removed; how many claims went with them. */
function pruneUnsupported(text: string, removed: ReadonlySet<string>): { text: string; pruned: number } {
  const { body, bodyLine } = splitFrontmatter(text);
  const byLine = new Map<number, boolean[]>();
  for (const claim of claimsOf(body)) {
    const only = claim.citations.length > 0 && claim.citations.every((c) => removed.has(fileOf(c.file)));
    byLine.set(claim.line, [...(byLine.get(claim.line) ?? []), only]);
  }
  const drop = new Set([...byLine].filter(([, onlies]) => onlies.every(Boolean)).map(([line]) => bodyLine + line - 2));
  const pruned = [...byLine].filter(([line]) => drop.has(bodyLine + line - 2)).reduce((n, [, onlies]) => n + onlies.length, 0);
  return { text: text.split('\n').filter((_line, index) => !drop.has(index)).join('\n'), pruned };
}
