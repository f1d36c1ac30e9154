import { isSpecialPage, type Contract } from '../contract.js';
import { sourcesOf, type Page } from '../page.js';
import { citationsOf } from './citation-rules.js';
import { finding, type Finding } from './finding.js';
import { sourceFilePath } from './page-rules.js';

/** How much of one raw source the wiki's pages tie to its lines with `<!-- from: raw/x#La-b -->`. */
export interface SourceCoverage {
  source: string;
  /** Lines of the source that hold text (blank lines count for neither side). */
  lines: number;
  /** Of those, the lines inside some from-range on a page. */
  covered: number;
  /** covered / lines, rounded to three decimals (1 for a source with no text lines). */
  share: number;
}

export interface CoverageMeasure {
  /** Measured sources, lowest share first (then by path). */
  sources: SourceCoverage[];
  /** Sources the pages cite whose lines cannot be counted (PDF, HTML, missing, too large). */
  unmeasured: string[];
}

/**
 * The coverage of every raw source the content pages cite (by `sources` or a from-comment),
 * when the wiki ties passages to line ranges at all: a wiki with no ranged from-comment
 * has nothing to measure (every source would read 0%), so it gets an empty measure.
 * `contentLines` says which lines of a source hold text; undefined when it cannot.
 */
export function measureCoverage(
  pages: readonly Page[],
  contract: Contract,
  contentLines: (rawPath: string) => readonly boolean[] | undefined,
): CoverageMeasure {
  const ranges = new Map<string, Array<[number, number]>>();
  const cited = new Set<string>();
  let ranged = false;
  for (const page of pages) {
    if (isSpecialPage(contract, page.path)) continue;
    for (const entry of sourcesOf(page.frontmatter)) {
      const file = sourceFilePath(entry);
      if (file?.startsWith('raw/')) cited.add(file);
    }
    for (const citation of citationsOf(page)) {
      const file = sourceFilePath(citation.file);
      if (!file?.startsWith('raw/')) continue;
      cited.add(file);
      if (citation.first === undefined || citation.last === undefined) continue;
      ranged = true;
      ranges.set(file, [...(ranges.get(file) ?? []), [citation.first, citation.last]]);
    }
  }
  if (!ranged) return { sources: [], unmeasured: [] };
  const sources: SourceCoverage[] = [];
  const unmeasured: string[] = [];
  for (const source of [...cited].sort()) {
    const hasText = contentLines(source);
    if (hasText === undefined) {
      unmeasured.push(source);
      continue;
    }
    const inRange = new Uint8Array(hasText.length);
    for (const [first, last] of ranges.get(source) ?? []) {
      for (let line = Math.max(1, first); line <= Math.min(last, hasText.length); line++) inRange[line - 1] = 1;
    }
    let lines = 0;
    let covered = 0;
    hasText.forEach((text, i) => {
      if (!text) return;
      lines += 1;
      if (inRange[i]) covered += 1;
    });
    sources.push({ source, lines, covered, share: lines === 0 ? 1 : Math.round((covered / lines) * 1000) / 1000 });
  }
  sources.sort((a, b) => a.share - b.share || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return { sources, unmeasured };
}

/** A warning per measured source whose share is below `threshold` (0 turns the check off). */
export function lowCoverageFindings(sources: readonly SourceCoverage[], threshold: number): Finding[] {
  return sources
    .filter((source) => source.share < threshold)
    .map((source) =>
      finding(
        'low-coverage',
        source.source,
        `only ${percent(source.share)} of its lines (${source.covered} of ${source.lines}) are inside a <!-- from: ${source.source}#La-b --> range on any page (threshold ${percent(threshold)})`,
        { fix: `re-ingest it (wiki ingest ${source.source} --force) so every window informs the pages, or cite the lines the pages draw on` },
      ),
    );
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
