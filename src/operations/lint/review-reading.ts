import { stringField, type Page } from '../../wiki/page.js';
import { readPage } from '../../wiki/page-read.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { lineWindow } from './cited-windows.js';

/**
 * What the lint review is told to read, within a stated budget: the pages the handed
 * findings are on (with the read_file offsets that show just their lines), then the pages
 * others rely on most, then those updated longest ago. A played review of 24 pages read 21
 * (54 KB), or would have reviewed blind from the summaries.
 */

/** Characters of pages a review is pointed to read (about 10k tokens). */
export const REVIEW_READ_CHARS = 40_000;
/** Lines shown around a finding's line. */
const AROUND = 2;
/** Pages named in each list at most. */
const LISTED = 8;

export interface ReviewPage {
  page: Page;
  /** How many pages link to it. */
  linksIn: number;
}

/** The reading guide for a review of `pages` (those the model may see) handed `findings`; empty when there are no pages. */
export function reviewReading(root: string, pages: readonly ReviewPage[], findings: readonly Finding[], budget = REVIEW_READ_CHARS): string {
  if (pages.length === 0) return '';
  const sizes = new Map<string, number>();
  const texts = new Map<string, string | undefined>();
  const textOf = (path: string): string | undefined => {
    if (!texts.has(path)) texts.set(path, readPage(root, path));
    return texts.get(path);
  };
  const sizeOf = (path: string): number => {
    if (!sizes.has(path)) sizes.set(path, textOf(path)?.length ?? 0);
    return sizes.get(path) ?? 0;
  };
  const total = pages.reduce((sum, { page }) => sum + sizeOf(page.path), 0);
  let left = budget;
  const chosen = new Set<string>();
  const lines = [
    `# What to read`,
    '',
    `Read at most about ${budget.toLocaleString('en-US')} characters of pages for this review (the ${pages.length} pages hold ${total.toLocaleString('en-US')}); judge the rest from their summaries in the page list. In this order:`,
  ];

  const flagged = new Map<string, Finding[]>();
  for (const finding of findings) if (pages.some(({ page }) => page.path === finding.path)) flagged.set(finding.path, [...(flagged.get(finding.path) ?? []), finding]);
  if (flagged.size > 0) {
    lines.push('', 'Pages with findings — read only the lines a finding names:');
    for (const [path, found] of flagged) {
      chosen.add(path);
      const text = textOf(path) ?? '';
      const hints = [...new Set(found.map((f) => f.line).filter((line): line is number => line !== undefined))].flatMap((line) => {
        const window = lineWindow(text, Math.max(1, line - AROUND), line + AROUND);
        if (window === undefined) return [];
        left -= window.limit;
        return [`line ${line}: read_file ${path} offset ${window.offset} limit ${window.limit} (lines ${window.first}–${window.last})`];
      });
      lines.push(`- ${path} (${found.length} finding${found.length === 1 ? '' : 's'}${hints.length > 0 ? `; ${hints.join('; ')}` : ''})`);
    }
  }
  const pick = (title: string, ordered: readonly ReviewPage[], describe: (page: ReviewPage) => string): void => {
    const picked: string[] = [];
    for (const entry of ordered) {
      if (picked.length >= LISTED || left <= 0) break;
      if (chosen.has(entry.page.path)) continue;
      const size = sizeOf(entry.page.path);
      if (size > left) continue;
      chosen.add(entry.page.path);
      left -= size;
      picked.push(`- ${entry.page.path} (${describe(entry)}, ${size.toLocaleString('en-US')} characters)`);
    }
    if (picked.length > 0) lines.push('', title, ...picked);
  };
  pick(
    'Most linked (other pages rely on them):',
    [...pages].filter((entry) => entry.linksIn > 0).sort((a, b) => b.linksIn - a.linksIn || a.page.path.localeCompare(b.page.path)),
    (entry) => `${entry.linksIn} page${entry.linksIn === 1 ? '' : 's'} link here`,
  );
  const updated = (entry: ReviewPage): string => stringField(entry.page.frontmatter, 'updated') ?? stringField(entry.page.frontmatter, 'created') ?? '';
  pick(
    'Least recently updated (most likely out of date):',
    [...pages].sort((a, b) => updated(a).localeCompare(updated(b)) || a.page.path.localeCompare(b.page.path)),
    (entry) => (updated(entry) ? `updated ${updated(entry)}` : 'no date'),
  );
  lines.push('', 'Do not read whole pages you need not: read_file with the offset and limit given above shows just those lines.');
  return lines.join('\n');
}
