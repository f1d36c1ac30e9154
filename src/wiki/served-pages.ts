import { isVisibleTo, type Viewer } from './access.js';
import type { Contract } from './contract.js';
import type { Page } from './page.js';
import type { PageIndex } from './page-index.js';

/**
 * The page index as one caller may see it. Every MCP tool reads pages through this view,
 * so a page the caller may not see never appears: not as a result, a title, a key in a
 * link list, a backlink, a close match, nor in a lint finding.
 */
export class ServedPages {
  /** Lists over every page, made once per view: a view lives while the index is unchanged (`servedView`). */
  private memo: { pages?: Page[]; hiddenNames?: string[]; total?: number } = {};

  constructor(
    private readonly index: PageIndex,
    private readonly contract: Contract,
    private readonly viewer: Viewer,
  ) {}

  /** Whether the caller may see the page at `pagePath` (false for an unknown path). */
  servesPath(pagePath: string): boolean {
    const page = this.index.atPath(pagePath);
    return page !== undefined && this.serves(page);
  }

  /** The page at `pagePath` when the caller may see it. */
  servedAt(pagePath: string): Page | undefined {
    const page = this.index.atPath(pagePath);
    return page !== undefined && this.serves(page) ? page : undefined;
  }

  serves(page: Page): boolean {
    return isVisibleTo(this.contract, page, this.viewer);
  }

  /** Whether some page with `key` is visible. */
  has(key: string): boolean {
    return this.visibleAt(key) !== undefined;
  }

  /** Whether any page at all, visible or not, has `key`: a hidden one is not a missing link. */
  exists(key: string): boolean {
    return this.index.has(key);
  }

  /** The visible page with `key`; the caller's own scratch page first. */
  get(key: string): Page | undefined {
    return this.visibleAt(key);
  }

  pages(): Page[] {
    this.memo.pages ??= this.index.pages().filter((page) => this.serves(page));
    return this.memo.pages;
  }

  backlinks(key: string): string[] {
    const keys = new Set<string>();
    for (const pagePath of this.index.backlinkPaths(key)) {
      const page = this.index.atPath(pagePath);
      if (page && this.serves(page)) keys.add(page.key);
    }
    return [...keys].sort();
  }

  /** Other visible paths holding a page with `key`. */
  pathsOf(key: string): string[] {
    return this.index.pathsOf(key).filter((pagePath) => this.servesPath(pagePath));
  }

  closeMatches(key: string, max: number): string[] {
    return this.index
      .closeMatches(key, max * 4)
      .filter((candidate) => this.has(candidate))
      .slice(0, max);
  }

  /** How many pages the caller may not see. */
  hiddenCount(): number {
    return this.totalCount() - this.pages().length;
  }

  /** How many pages there are, seen or not. */
  totalCount(): number {
    this.memo.total ??= this.index.pages().length;
    return this.memo.total;
  }

  /** Path, key and title of every page the caller may not see (keys also held by a visible page excepted). */
  hiddenNames(): string[] {
    this.memo.hiddenNames ??= this.listHiddenNames();
    return this.memo.hiddenNames;
  }

  private listHiddenNames(): string[] {
    const names: string[] = [];
    for (const page of this.index.pages()) {
      if (this.serves(page)) continue;
      names.push(page.path);
      if (!this.has(page.key)) names.push(page.key);
      const title = page.frontmatter.title;
      if (typeof title === 'string' && title.trim() !== '') names.push(title.trim());
    }
    return names;
  }

  private visibleAt(key: string): Page | undefined {
    const visible = this.index
      .pathsOf(key)
      .map((pagePath) => this.index.atPath(pagePath))
      .filter((page): page is Page => page !== undefined && this.serves(page));
    return visible.find((page) => page.path.startsWith('wiki/user/')) ?? visible[0];
  }
}

const views = new WeakMap<PageIndex, Map<string, { version: number; view: ServedPages }>>();

/**
 * The view of `index` for `viewer`, the same object while the index is unchanged: a server
 * answering many calls over a large wiki lists the pages hidden from each caller once per
 * change, not once per call.
 */
export function servedView(index: PageIndex, contract: Contract, viewer: Viewer): ServedPages {
  let byViewer = views.get(index);
  if (!byViewer) views.set(index, (byViewer = new Map()));
  const key = `${viewer.maxRank ?? '-'}\u0000${viewer.user ?? ''}`;
  const cached = byViewer.get(key);
  if (cached && cached.version === index.version) return cached.view;
  const view = new ServedPages(index, contract, viewer);
  byViewer.set(key, { version: index.version, view });
  return view;
}

/** Keys `page` links to that exist but are not served to the caller. */
export function withheldLinks(page: Page, served: ServedPages): Set<string> {
  return new Set(page.links.map((link) => link.target).filter((key) => served.exists(key) && !served.has(key)));
}

/**
 * The body without the lines that link to a withheld page: such a line (an index entry, a
 * sentence about the page) tells its title and summary as much as its key does.
 */
export function servedBody(page: Page, served: ServedPages): string {
  const withheld = withheldLinks(page, served);
  if (withheld.size === 0) return page.body;
  const raws = page.links.filter((link) => link.kind === 'inline' && withheld.has(link.target)).map((link) => link.raw);
  return page.body
    .split('\n')
    .map((line) => (raws.some((raw) => line.includes(raw)) ? '[a line linking to a page not served to you was left out]' : line))
    .join('\n');
}
