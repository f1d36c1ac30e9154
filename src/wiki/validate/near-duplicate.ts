import type { PageIndex } from '../page-index.js';
import { stringField, type Page } from '../page.js';
import { finding, type Finding } from './finding.js';

const FIX = 'if both are about the same thing, merge them into one page and point links at it';

/** Near-duplicates of `page` among the indexed content pages (other than itself), one finding per other page. */
export function nearDuplicatesOf(page: Page, index: PageIndex): Array<{ otherPath: string; finding: Finding }> {
  const out = new Map<string, Finding>();
  for (const key of index.nearMatches(page.key)) {
    for (const otherPath of index.pathsOf(key)) {
      if (otherPath === page.path || out.has(otherPath)) continue;
      out.set(
        otherPath,
        finding('near-duplicate', page.path, `key "${page.key}" is nearly the same as [[${key}]] (${otherPath})`, { fix: FIX }),
      );
    }
  }
  const title = stringField(page.frontmatter, 'title');
  if (title) {
    for (const otherPath of index.pathsWithTitle(title, page.path)) {
      if (out.has(otherPath)) continue;
      const other = index.atPath(otherPath);
      if (!other || other.key === page.key) continue; // same key is a duplicate-key error instead
      out.set(
        otherPath,
        finding('near-duplicate', page.path, `title "${title}" is nearly the same as that of [[${other.key}]] (${otherPath})`, { fix: FIX }),
      );
    }
  }
  return [...out].map(([otherPath, f]) => ({ otherPath, finding: f }));
}

/** Near-duplicates of `page` in `index` and among `alongside` (pages written with it), each other page once. */
export function nearDuplicatesAlongside(page: Page, index: PageIndex, alongside: PageIndex | undefined): Array<{ otherPath: string; finding: Finding }> {
  const found = nearDuplicatesOf(page, index);
  if (alongside === undefined) return found;
  const seen = new Set(found.map((near) => near.otherPath));
  return [...found, ...nearDuplicatesOf(page, alongside).filter((near) => !seen.has(near.otherPath))];
}

/** Every near-duplicate pair of content pages once, reported on the later path of the pair. */
export function nearDuplicateFindings(index: PageIndex, isContent: (pagePath: string) => boolean): Finding[] {
  const reported = new Set<string>();
  const findings: Finding[] = [];
  const report = (earlier: string, later: string, make: () => Finding): void => {
    const id = `${earlier}\u0000${later}`;
    if (reported.has(id)) return;
    reported.add(id);
    findings.push(make());
  };
  for (const [a, b] of index.nearPairs()) {
    for (const pathA of index.pathsOf(a).filter(isContent)) {
      for (const pathB of index.pathsOf(b).filter(isContent)) {
        const [earlier, later] = pathA < pathB ? [pathA, pathB] : [pathB, pathA];
        const [laterKey, earlierKey] = later === pathA ? [a, b] : [b, a];
        report(earlier, later, () =>
          finding('near-duplicate', later, `key "${laterKey}" is nearly the same as [[${earlierKey}]] (${earlier})`, { fix: FIX }),
        );
      }
    }
  }
  for (const group of index.sameTitleGroups()) {
    for (let j = 1; j < group.length; j++) {
      for (let i = 0; i < j; i++) {
        const earlier = index.atPath(group[i] ?? '');
        const later = index.atPath(group[j] ?? '');
        if (!earlier || !later || earlier.key === later.key) continue; // same key is a duplicate-key error instead
        const title = stringField(later.frontmatter, 'title') ?? '';
        report(earlier.path, later.path, () =>
          finding('near-duplicate', later.path, `title "${title}" is nearly the same as that of [[${earlier.key}]] (${earlier.path})`, { fix: FIX }),
        );
      }
    }
  }
  return findings;
}
