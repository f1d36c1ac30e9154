import { editFrontmatter, extendList, setField } from './frontmatter-edit.js';
import { refsOf, sourcesOf, splitFrontmatter, type Page } from './page.js';
import { citationsOf } from './validate/citation-rules.js';
import { isDeniedPath, sourceFilePath } from './validate/page-rules.js';

/**
 * Frontmatter that says what the body does: `refs` lists every page the body links to and
 * `sources` every file its `<!-- from: … -->` comments cite. The write tools keep a page in
 * step on every write, and move its `updated` to the day of the write (see syncFrontmatter); lint reports, and `--fix` repairs, older pages
 * that drifted. Both fields only grow here: an entry the body no longer uses is left alone.
 */
export interface FrontmatterDrift {
  /** Keys the body links to that `refs` lacks, in order of first link. */
  refs: string[];
  /** Cited files `sources` lacks, in order of first citation. */
  sources: string[];
}

export interface DriftChecks {
  /** Whether a key names a page; a link to none is a broken link, not drift. */
  resolves?: (key: string) => boolean;
  /** Whether a cited file exists; a citation of none is a bad citation, not drift. */
  rawExists?: (rawPath: string) => boolean;
}

/** What `page`'s frontmatter lacks; a field the page holds as a single string is left to its owner. */
export function frontmatterDrift(page: Page, checks: DriftChecks = {}): FrontmatterDrift {
  const resolves = checks.resolves ?? (() => true);
  const rawExists = checks.rawExists ?? (() => true);
  if (page.parseError) return { refs: [], sources: [] };
  const listed = (field: string): boolean => {
    const value = page.frontmatter[field];
    return value === undefined || value === null || Array.isArray(value);
  };
  const refs = new Set(refsOf(page.frontmatter));
  const missingRefs: string[] = [];
  if (listed('refs')) {
    for (const link of page.links) {
      if (link.kind !== 'inline' || link.target === '' || link.target === page.key || refs.has(link.target) || !resolves(link.target)) continue;
      refs.add(link.target);
      missingRefs.push(link.target);
    }
  }
  const sources = new Set(sourcesOf(page.frontmatter).map((entry) => sourceFilePath(entry) ?? entry));
  const missingSources: string[] = [];
  if (listed('sources')) {
    for (const citation of citationsOf(page)) {
      const file = sourceFilePath(citation.file);
      if (file === undefined || sources.has(file) || isDeniedPath(file) || !rawExists(file)) continue;
      sources.add(file);
      missingSources.push(file);
    }
  }
  return { refs: missingRefs, sources: missingSources };
}

export function hasDrift(drift: FrontmatterDrift): boolean {
  return drift.refs.length > 0 || drift.sources.length > 0;
}

export interface FrontmatterSync {
  /** The page with its frontmatter in step (the same text when nothing was missing). */
  text: string;
  added: FrontmatterDrift;
  /** The `updated` date set, when it changed. */
  dated?: string;
}

/**
 * `text` (parsed as `page`) with the drift added to `refs` and `sources` and `updated` set to
 * `today`. Only those fields are touched: the rest of the block keeps its comments, quoting
 * and order, and the body is kept byte for byte. A page without a parsable frontmatter block
 * is returned as it is (the validator says what is wrong with it).
 */
export function syncFrontmatter(text: string, page: Page, today: string | undefined): FrontmatterSync {
  const unchanged: FrontmatterSync = { text, added: { refs: [], sources: [] } };
  const split = splitFrontmatter(text);
  if (page.parseError || split.yaml === undefined) return unchanged;
  const added = frontmatterDrift(page);
  // A page that keeps dates gets `updated` moved; one that keeps none is left without (the contract decides).
  const keepsDates = page.frontmatter.updated !== undefined || page.frontmatter.created !== undefined;
  const redate = today !== undefined && keepsDates && String(page.frontmatter.updated ?? '') !== today;
  if (!hasDrift(added) && !redate) return unchanged;

  const text2 = editFrontmatter(text, page, ['refs', 'sources', 'updated'], (doc, map) => {
    extendList(doc, map, 'refs', added.refs);
    extendList(doc, map, 'sources', added.sources);
    if (redate) setField(doc, map, 'updated', today);
  });
  // Re-printing YAML is faithful for what pages hold; an odd block it would re-spell is left alone.
  if (text2 === undefined) return unchanged;
  const result: FrontmatterSync = { text: text2, added };
  if (redate) result.dated = today;
  return result;
}

/** One line for the model or the lint report, e.g. `added to refs: a, b; added to sources: raw/x.md`. */
export function describeSync(sync: Pick<FrontmatterSync, 'added' | 'dated'>): string | undefined {
  const parts: string[] = [];
  if (sync.added.refs.length > 0) parts.push(`added to refs: ${sync.added.refs.join(', ')}`);
  if (sync.added.sources.length > 0) parts.push(`added to sources: ${sync.added.sources.join(', ')}`);
  if (sync.dated !== undefined) parts.push(`updated: ${sync.dated}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}
