import type { Page } from '../page.js';
import { finding, type Finding } from './finding.js';
import { isArchived, isDeniedPath, sourceFilePath } from './page-rules.js';

/** `<!-- from: raw/x.md#L10-40 -->` (or `#L12`): a passage tied to lines of a raw file. */
const FROM_COMMENT = /<!--\s*from:\s*([^\s#>]+)(#[^\s>]*)?\s*-->/g;
const LINE_RANGE = /^#L(\d+)(?:-L?(\d+))?$/;

export interface Citation {
  file: string;
  /** 1-based inclusive line range, when given. */
  first?: number;
  last?: number;
  /** 1-based line of the comment in the page file. */
  line: number;
}

/** Every from-comment in the page body. */
export function citationsOf(page: Page): Citation[] {
  const citations: Citation[] = [];
  page.body.split('\n').forEach((text, i) => {
    for (const match of text.matchAll(FROM_COMMENT)) {
      const [, file = '', fragment = ''] = match;
      const [, first, last] = LINE_RANGE.exec(fragment) ?? [];
      const citation: Citation = { file, line: page.bodyLine + i };
      if (first !== undefined) {
        citation.first = Number(first);
        citation.last = last === undefined ? Number(first) : Number(last);
      }
      citations.push(citation);
    }
  });
  return citations;
}

/**
 * A from-comment must name a file in the workspace and lines within it, so the evidence it
 * points at exists. `lineCount` gives a raw file's number of lines (undefined: unknown).
 */
export function citationFindings(page: Page, rawExists: (rawPath: string) => boolean, lineCount: (rawPath: string) => number | undefined): Finding[] {
  const findings: Finding[] = [];
  if (isArchived(page)) return findings;
  for (const citation of citationsOf(page)) {
    const file = sourceFilePath(citation.file);
    // A denied file (.env, keys…) answers like a missing one, as in `sources`.
    if (file === undefined || isDeniedPath(file) || !rawExists(file)) {
      findings.push(
        finding('bad-citation', page.path, `<!-- from: ${citation.file} --> names no file in the workspace`, {
          line: citation.line,
          fix: 'cite a raw file by its path from the workspace root, e.g. <!-- from: raw/paper.md#L10-40 -->',
        }),
      );
      continue;
    }
    if (citation.first === undefined || citation.last === undefined) continue;
    const total = lineCount(file);
    const backwards = citation.last < citation.first || citation.first < 1;
    if (backwards || (total !== undefined && citation.last > total)) {
      findings.push(
        finding('bad-citation', page.path, `<!-- from: ${citation.file}#L${citation.first}-${citation.last} --> is outside the file (${total ?? '?'} lines)`, {
          line: citation.line,
          fix: `cite lines between 1 and ${total ?? 'the last line'}, as read_file numbers them`,
        }),
      );
    }
  }
  return findings;
}
