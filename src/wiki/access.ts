import type { Contract } from './contract.js';
import type { Frontmatter, Page } from './page.js';

/**
 * Who sees what. Two page fields decide it: `usage_mode` (is the page surfaced to the
 * model and to searches at all, or always put in front of it) and `visibility` (the
 * level other agents need to be served it over MCP). Pure: callers bring the pages.
 */
export const USAGE_MODES = ['always', 'auto', 'never'] as const;
export type UsageMode = (typeof USAGE_MODES)[number];

/** The page's usage mode; anything but a known value counts as `auto` (lint reports it). */
export function usageModeOf(frontmatter: Frontmatter): UsageMode {
  const value = frontmatter.usage_mode;
  return typeof value === 'string' && (USAGE_MODES as readonly string[]).includes(value) ? (value as UsageMode) : 'auto';
}

/** A `never` page is a valid link target and is linted, but no list or search shows it. */
export function isSurfaced(page: Pick<Page, 'frontmatter'>): boolean {
  return usageModeOf(page.frontmatter) !== 'never';
}

/** The contract's ordered levels; a contract read before levels existed has the default ones. */
export function visibilityLevels(contract: Contract): { levels: readonly string[]; default: string } {
  return contract.visibility ?? { levels: ['public', 'internal', 'private'], default: 'public' };
}

/**
 * The rank of a page's level (0 = least restricted), or undefined when it cannot be read:
 * a page whose frontmatter does not parse might declare any level, so it is never served.
 * A missing or unknown level counts as the contract's default.
 */
export function visibilityRank(contract: Contract, page: Pick<Page, 'frontmatter' | 'parseError'>): number | undefined {
  if (page.parseError !== undefined) return undefined;
  const { levels, default: fallback } = visibilityLevels(contract);
  const declared = page.frontmatter.visibility;
  const rank = typeof declared === 'string' ? levels.indexOf(declared) : -1;
  return rank >= 0 ? rank : levels.indexOf(fallback);
}

/** The rank of a cap such as `internal`; undefined when the contract has no such level. */
export function capRank(contract: Contract, level: string): number | undefined {
  const rank = visibilityLevels(contract).levels.indexOf(level);
  return rank >= 0 ? rank : undefined;
}

/** The folder holding each user's scratch pages: `wiki/user/<name>/`. */
export const USER_SCOPE_ROOT = 'wiki/user/';

/** The user whose scratch scope holds `pagePath`, or undefined for a team page. */
export function scopeOf(pagePath: string): string | undefined {
  if (!pagePath.startsWith(USER_SCOPE_ROOT)) return undefined;
  const name = pagePath.slice(USER_SCOPE_ROOT.length).split('/')[0];
  return name === undefined || name === '' || !pagePath.slice(USER_SCOPE_ROOT.length).includes('/') ? undefined : name;
}

/** Who is asking: the user (for their scratch scope) and, for other agents, the visibility cap. */
export interface Viewer {
  user?: string | undefined;
  /** Rank of the highest level served; undefined = no cap (the wiki's own model and CLI). */
  maxRank?: number | undefined;
}

/** Whether `viewer` may be shown `page` at all: surfaced, in a scope it owns, and within its cap. */
export function isVisibleTo(contract: Contract, page: Page, viewer: Viewer): boolean {
  if (!isSurfaced(page)) return false;
  const scope = scopeOf(page.path);
  if (scope !== undefined && scope !== viewer.user) return false;
  if (viewer.maxRank === undefined) return true;
  const rank = visibilityRank(contract, page);
  return rank !== undefined && rank <= viewer.maxRank;
}
