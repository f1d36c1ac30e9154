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

/** Every near-duplicate pair once, reported on the later path of the pair. */
export function nearDuplicateFindings(contentPages: Page[], index: PageIndex): Finding[] {
  const findings: Finding[] = [];
  for (const page of contentPages) {
    for (const { otherPath, finding: f } of nearDuplicatesOf(page, index)) {
      if (otherPath < page.path) findings.push(f);
    }
  }
  return findings;
}
