import { isSpecialPage, type Contract } from '../wiki/contract.js';
import { refsOf, stringField, tagsOf, type Frontmatter, type Page } from '../wiki/page.js';
import { servedBody, withheldLinks, type ServedPages } from '../wiki/served-pages.js';

/** What `list_pages` shows of a page. */
export interface PageSummary {
  key: string;
  path: string;
  title: string | null;
  summary: string | null;
  type: string | null;
  tags: string[];
}

/** What `read_page` returns: the whole page with its place in the link graph. */
export interface PageDetail extends PageSummary {
  frontmatter: Frontmatter;
  body: string;
  /** Keys this page links to (refs and inline links), sorted. */
  links: string[];
  /** The subset of `links` that name no existing page. */
  missingLinks: string[];
  /** Keys of the pages that link here, sorted. */
  backlinks: string[];
  /** Other paths holding a page with the same key (a duplicate key; `wiki lint` reports it). */
  duplicatePaths?: string[];
  /** Why the frontmatter could not be read, when it could not. */
  frontmatterError?: string;
}

export interface PageListQuery {
  type?: string | undefined;
  tag?: string | undefined;
  limit: number;
  offset: number;
}

export interface PageList {
  /** Pages matching the filters, before pagination. */
  total: number;
  offset: number;
  limit: number;
  pages: PageSummary[];
  /** Offset of the next page of results; null on the last one. */
  nextOffset: number | null;
}

export function summarisePage(page: Page): PageSummary {
  return {
    key: page.key,
    path: page.path,
    title: stringField(page.frontmatter, 'title') ?? null,
    summary: stringField(page.frontmatter, 'summary') ?? null,
    type: page.type ?? null,
    tags: tagsOf(page.frontmatter),
  };
}

/** The page as `served` may see it: links and backlinks to pages it may not see are left out. */
export function pageDetail(page: Page, served: ServedPages): PageDetail {
  const links = [...new Set(page.links.map((link) => link.target))]
    .filter((key) => served.has(key) || !served.exists(key))
    .sort();
  const withheld = withheldLinks(page, served);
  const detail: PageDetail = {
    ...summarisePage(page),
    frontmatter: withheld.size === 0 ? page.frontmatter : { ...page.frontmatter, refs: refsOf(page.frontmatter).filter((key) => !withheld.has(key)) },
    body: servedBody(page, served),
    links,
    missingLinks: links.filter((key) => !served.exists(key)),
    backlinks: served.backlinks(page.key),
  };
  const duplicates = served.pathsOf(page.key).filter((p) => p !== page.path);
  if (duplicates.length > 0) detail.duplicatePaths = duplicates;
  if (page.parseError) detail.frontmatterError = page.parseError;
  return detail;
}

/**
 * Content pages (index, log and catalog spokes left out) matching the filters, in path
 * order, one window at a time. Tags match without regard to case.
 */
export function listPages(pages: readonly Page[], contract: Contract, query: PageListQuery): PageList {
  const tag = query.tag?.trim().toLowerCase();
  const matching = pages.filter(
    // `pages` are those the caller may see already (see ServedPages).
    (page) =>
      !isSpecialPage(contract, page.path) &&
      (query.type === undefined || page.type === query.type) &&
      (!tag || tagsOf(page.frontmatter).some((t) => t.toLowerCase() === tag)),
  );
  const window = matching.slice(query.offset, query.offset + query.limit);
  const end = query.offset + window.length;
  return {
    total: matching.length,
    offset: query.offset,
    limit: query.limit,
    pages: window.map(summarisePage),
    nextOffset: end < matching.length ? end : null,
  };
}

/**
 * Why `key` cannot be a page key, or undefined when it can. Keys are bare file names, so
 * anything path-like is refused outright instead of being looked up. A path is answered
 * with the key it ends in only when that key is a page the caller may see (`isServedKey`):
 * `/etc/passwd` or `../secret` suggests nothing from outside the wiki, nor a hidden page.
 */
export function keyRefusal(key: string, isServedKey: (key: string) => boolean = () => false): string | undefined {
  const trimmed = key.trim();
  if (trimmed === '') return 'the key is empty; give a page key such as `attention` (a file name under wiki/ without .md)';
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return 'the key contains control characters; give a page key such as `attention`';
  if (/[/\\]/.test(trimmed) || trimmed.startsWith('.') || trimmed.endsWith('.md')) {
    const basename = trimmed.split(/[/\\]/).pop()?.replace(/\.md$/, '') ?? '';
    const pagePath = /^wiki[/\\]/.test(trimmed) || !/[/\\]/.test(trimmed);
    const suggestion = pagePath && /^[^.]/.test(basename) && isServedKey(basename) ? `; did you mean the key \`${basename}\`?` : '';
    return `read_page takes a page key (the file name without .md), not a path${suggestion}`;
  }
  return undefined;
}
