import type { WritePlace } from '../confine/confined-io.js';

/**
 * Where each kind of the tool's own state may write. The paths these writers use come from
 * files an attacker can craft (the source record names the pages to mark stale,
 * `.wiki/history/` the files to restore), so the confined writer checks every write and
 * removal against its place: a crafted `schema.md`, `raw/…` or `.git/config` is refused
 * before anything is touched.
 */

/** `wiki/…/name.md` with no hidden segment: a page (never a folder, a temp file or a dot-file). */
export function isWikiPage(relative: string): boolean {
  return isWikiFile(relative) && relative.endsWith('.md');
}

/** A file under `wiki/` with no hidden segment (pages, index.md, log.md, hub spokes). */
export function isWikiFile(relative: string): boolean {
  const segments = relative.split('/');
  const [first, ...rest] = segments;
  return first === 'wiki' && rest.length > 0 && rest.every((segment) => segment !== '' && segment !== '..' && !segment.startsWith('.'));
}

/** Stale marking touches pages and nothing else. */
export const STALE_MARK_PLACE: WritePlace = {
  what: 'stale marking writes only pages under wiki/',
  allows: isWikiPage,
};

/** Moving citations with their source, and a source's removal or rename, edit pages and nothing else. */
export const SOURCE_FOLLOW_PLACE: WritePlace = {
  what: 'following a source edits only pages under wiki/',
  allows: isWikiPage,
};
