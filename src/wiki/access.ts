import type { Contract } from './contract.js';
import type { Frontmatter } from './frontmatter-fields.js';

/** The fields of a page (wiki/page.ts `Page`) who-sees-what reads; declared here so access.ts and page.ts do not import each other. */
interface Page {
  path: string;
  frontmatter: Frontmatter;
  parseError?: string;
}

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

/**
 * The `usage_mode` and `visibility` a frontmatter text declares, read line by line: what a
 * frontmatter YAML cannot parse (a stray colon in a summary) still says about who sees it.
 */
export function declaredAccessFields(frontmatterText: string): Record<string, string> {
  const declared: Record<string, string> = {};
  for (const field of ['usage_mode', 'visibility']) {
    const match = new RegExp(`^${field}[ \\t]*:[ \\t]*["']?([A-Za-z0-9_-]+)`, 'm').exec(frontmatterText);
    if (match?.[1] !== undefined) declared[field] = match[1];
  }
  return declared;
}

/**
 * The frontmatter a page whose YAML does not parse counts as having: empty, except that a
 * `usage_mode: never` its text declares still holds, so a hidden page fails closed (its
 * `visibility` needs nothing: such a page has no rank and is never served).
 */
export function unparsedFrontmatter(frontmatterText: string): Frontmatter {
  return declaredAccessFields(frontmatterText).usage_mode === 'never' ? { usage_mode: 'never' } : {};
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
 * A missing level counts as the contract's default. A declared level the contract does not
 * know (a typo, or a level added to schema.md that a reader has not loaded) counts as the
 * most restrictive one: a reader that cannot place a level fails closed.
 */
export function visibilityRank(contract: Contract, page: Pick<Page, 'frontmatter' | 'parseError'>): number | undefined {
  if (page.parseError !== undefined) return undefined;
  const { levels, default: fallback } = visibilityLevels(contract);
  const declared = page.frontmatter.visibility;
  if (declared === undefined || declared === null) return Math.max(0, levels.indexOf(fallback));
  const rank = typeof declared === 'string' ? levels.indexOf(declared.trim()) : -1;
  return rank >= 0 ? rank : levels.length - 1;
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

/**
 * Whether `relPath` (a page, or a folder on the way to one) lies where `user` may look:
 * anywhere but another user's scratch folder `wiki/user/<other>/` and what it holds.
 */
export function inScopeOf(relPath: string, user: string | undefined): boolean {
  if (!relPath.startsWith(USER_SCOPE_ROOT)) return true;
  const name = relPath.slice(USER_SCOPE_ROOT.length).split('/')[0] ?? '';
  return name === '' || name === user;
}

/** isVisibleTo for a viewer without a cap (the wiki's own model and CLI): surfaced and in scope. */
export function isSeenBy(page: Pick<Page, 'path' | 'frontmatter'>, user: string | undefined): boolean {
  return isSurfaced(page) && inScopeOf(page.path, user);
}

/**
 * THE visibility rule, for every reader: the model's prompt, tools and search, `wiki
 * search`, lint's model review, `wiki graph` and `wiki mcp`. A page is seen only when it
 * is surfaced (not `usage_mode: never`, also when its YAML does not parse) and lies in no
 * other user's scratch scope; a viewer with a cap (other agents, the graph) also needs the
 * page's visibility at or below it (a page whose frontmatter does not parse has no rank).
 * Callers add only the shadowing of a team page by the user's own scratch page of that key.
 */
export function isVisibleTo(contract: Contract, page: Pick<Page, 'path' | 'frontmatter' | 'parseError'>, viewer: Viewer): boolean {
  if (!isSeenBy(page, viewer.user)) return false;
  if (viewer.maxRank === undefined) return true;
  const rank = visibilityRank(contract, page);
  return rank !== undefined && rank <= viewer.maxRank;
}
