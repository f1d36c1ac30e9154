import { isSpecialPage, type Contract } from './contract.js';
import type { Page } from './page.js';
import { stringField } from './page.js';
import { NameIndex } from './name-index.js';
import { canonicalName } from './similarity.js';
import { keyFromPath } from './keys.js';
import { slugify } from './slug.js';

/**
 * The wiki's pages in memory: key → page, the link graph both ways, duplicate keys and a
 * similarity index for close-match suggestions. Built once, then kept current with
 * `upsert`/`remove`, each of which touches only the page concerned — so a write can be
 * validated against a 10k-page wiki without rescanning it.
 */
/** How many of the latest changes `changedSince` can tell (a run changes a few pages between reads). */
const RECENT_CHANGES = 1024;

export class PageIndex {
  private readonly byPath = new Map<string, Page>();
  private readonly pathsByKey = new Map<string, string[]>();
  private readonly outgoingByPath = new Map<string, Set<string>>();
  private readonly incoming = new Map<string, Set<string>>();
  /** Names and titles cover content pages only: special pages are never suggested. */
  private readonly names = new NameIndex();
  private readonly pathsByTitle = new Map<string, Set<string>>();
  private readonly titleOfPath = new Map<string, string>();

  private changes = 0;
  /** The paths of the latest changes, in order: `recent[i]` is change number `recentFrom + i + 1`. */
  private recent: string[] = [];
  private recentFrom = 0;

  constructor(private readonly contract: Contract) {}

  static fromPages(pages: Page[], contract: Contract): PageIndex {
    const index = new PageIndex(contract);
    for (const page of pages) index.upsert(page);
    return index;
  }

  /** Add a page, or replace the page at the same path. */
  upsert(page: Page): void {
    this.changed(page.path);
    if (this.byPath.has(page.path)) this.remove(page.path);
    this.byPath.set(page.path, page);
    const paths = this.pathsByKey.get(page.key);
    if (paths) {
      paths.push(page.path);
      paths.sort();
    } else {
      this.pathsByKey.set(page.key, [page.path]);
    }
    const targets = new Set(page.links.map((link) => link.target));
    this.outgoingByPath.set(page.path, targets);
    for (const target of targets) addTo(this.incoming, target, page.path);
    if (!isSpecialPage(this.contract, page.path)) {
      this.names.add(page.key);
      this.indexTitle(page);
    }
  }

  remove(pagePath: string): void {
    const page = this.byPath.get(pagePath);
    if (!page) return;
    this.changed(pagePath);
    this.byPath.delete(pagePath);
    const remaining = (this.pathsByKey.get(page.key) ?? []).filter((p) => p !== pagePath);
    if (remaining.length > 0) this.pathsByKey.set(page.key, remaining);
    else this.pathsByKey.delete(page.key);
    for (const target of this.outgoingByPath.get(pagePath) ?? []) removeFrom(this.incoming, target, pagePath);
    this.outgoingByPath.delete(pagePath);
    const contentPathLeft = remaining.some((p) => !isSpecialPage(this.contract, p));
    if (!contentPathLeft) this.names.delete(page.key);
    this.unindexTitle(pagePath);
  }

  /** The page with this key; with duplicate keys, the one at the first path in sort order. */
  get(key: string): Page | undefined {
    const first = this.pathsByKey.get(key)?.[0];
    return first === undefined ? undefined : this.byPath.get(first);
  }

  has(key: string): boolean {
    return this.pathsByKey.has(key);
  }

  atPath(pagePath: string): Page | undefined {
    return this.byPath.get(pagePath);
  }

  /** Every path holding a page with this key (more than one is a duplicate key), sorted. */
  pathsOf(key: string): string[] {
    return [...(this.pathsByKey.get(key) ?? [])];
  }

  keys(): string[] {
    return [...this.pathsByKey.keys()].sort();
  }

  pages(): Page[] {
    return [...this.byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Every page, in no particular order (no copy, no sort). */
  unordered(): IterableIterator<Page> {
    return this.byPath.values();
  }

  /** Changes with every upsert and remove: what was worked out from the pages holds while it stays. */
  get version(): number {
    return this.changes;
  }

  /**
   * The paths changed since `version` (with repeats), so what was worked out then can be
   * brought up to date page by page; undefined when that is too long ago to say.
   */
  changedSince(version: number): readonly string[] | undefined {
    if (version < this.recentFrom || version > this.changes) return undefined;
    return this.recent.slice(version - this.recentFrom);
  }

  private changed(pagePath: string): void {
    this.changes += 1;
    this.recent.push(pagePath);
    if (this.recent.length > RECENT_CHANGES) {
      const dropped = this.recent.length - RECENT_CHANGES / 2;
      this.recent = this.recent.slice(dropped);
      this.recentFrom += dropped;
    }
  }

  /** Keys of the pages that link to `key` (refs or inline), itself excluded, sorted. */
  backlinks(key: string): string[] {
    const sources = new Set<string>();
    for (const sourcePath of this.incoming.get(key) ?? []) {
      const source = this.byPath.get(sourcePath);
      if (source && source.key !== key) sources.add(source.key);
    }
    return [...sources].sort();
  }

  /** Paths of the pages that link to `key`, itself excluded. */
  backlinkPaths(key: string): string[] {
    return [...(this.incoming.get(key) ?? [])].filter((p) => this.byPath.get(p)?.key !== key).sort();
  }

  /** Keys `key`'s page links to (existing or not), sorted. */
  outgoing(key: string): string[] {
    const first = this.pathsByKey.get(key)?.[0];
    return first === undefined ? [] : [...(this.outgoingByPath.get(first) ?? [])].sort();
  }

  /**
   * Up to `max` existing content keys that `key` was probably meant to be: the key a title
   * `key` would get (`[[Häuser der Stadt]]` → hauser-der-stadt, `[[研究生命起源]]` →
   * yan-jiu-sheng-ming-qi-yuan) and the pages titled `key` first, then the same name modulo
   * case, punctuation and plural/singular, then by edit distance on that form.
   */
  closeMatches(key: string, max = 3): string[] {
    const named = [slugify(key), ...this.pathsWithTitle(key).map(keyFromPath)].filter((found) => found && found !== key && this.has(found));
    if (named.length === 0) return this.names.closeMatches(key, max);
    return [...new Set([...named, ...this.names.closeMatches(key, max)])].slice(0, max);
  }

  /** Existing content keys other than `key` that are near-identical names (see isNearName), sorted. */
  nearMatches(key: string): string[] {
    return this.names.nearMatches(key);
  }

  /** Every near-identical pair of content keys, [a, b] with a < b (see isNearName). */
  nearPairs(): Array<[string, string]> {
    return this.names.nearPairs();
  }

  /** Groups of two or more content pages whose titles read the same, each group's paths sorted. */
  sameTitleGroups(): string[][] {
    const groups: string[][] = [];
    for (const paths of this.pathsByTitle.values()) if (paths.size > 1) groups.push([...paths].sort());
    return groups;
  }

  /** Content pages other than `exceptPath` whose title reads the same as `title` (case, punctuation, plural). */
  pathsWithTitle(title: string, exceptPath?: string): string[] {
    const canonical = canonicalName(title);
    if (!canonical) return [];
    return [...(this.pathsByTitle.get(canonical) ?? [])].filter((p) => p !== exceptPath).sort();
  }

  private indexTitle(page: Page): void {
    const title = stringField(page.frontmatter, 'title');
    const canonical = title ? canonicalName(title) : '';
    if (!canonical) return;
    this.titleOfPath.set(page.path, canonical);
    addTo(this.pathsByTitle, canonical, page.path);
  }

  private unindexTitle(pagePath: string): void {
    const canonical = this.titleOfPath.get(pagePath);
    if (canonical === undefined) return;
    this.titleOfPath.delete(pagePath);
    removeFrom(this.pathsByTitle, canonical, pagePath);
  }
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
