import { followRange, type LineMap } from './line-map.js';
import { splitFrontmatter } from '../wiki/frontmatter-split.js';

/** A citation of the source whose cited lines changed: left as it was, for a reader to settle. */
export interface ChangedCitation {
  /** 1-based line of the page file holding the citation. */
  line: number;
  first: number;
  last: number;
}

export interface CitationMoves {
  text: string;
  /** Citations rewritten to the lines their text moved to. */
  moved: number;
  /** Citations whose lines are where they were. */
  unmoved: number;
  changed: ChangedCitation[];
}

const LINE_RANGE = /#L(\d+)(?:-L?(\d+))?/y;

/**
 * The page with every line citation of `rawPath` — `<!-- from: raw/x.md#L10-40 -->` in the
 * body, `raw/x.md#L10-40` in the frontmatter — moved to where its lines now are. Pure and
 * deterministic: two clones that see the same change of the source make the same rewrite.
 * A range whose lines changed is left alone and reported, never silently moved; so is one
 * `keep` names (a stale claim's, numbered by an older version, waiting for a reader).
 */
export function moveCitations(pageText: string, rawPath: string, map: LineMap, keep: (first: number, last: number) => boolean = () => false): CitationMoves {
  const result: CitationMoves = { text: pageText, moved: 0, unmoved: 0, changed: [] };
  // Lines before the body are the frontmatter block (its fences included).
  const frontmatterLines = splitFrontmatter(pageText).bodyLine - 1;
  const lines = pageText.split('\n');
  lines.forEach((text, index) => {
    const inFrontmatter = index < frontmatterLines;
    lines[index] = rewriteLine(text, rawPath, map, index + 1, inFrontmatter, result, keep);
  });
  result.text = lines.join('\n');
  return result;
}

function rewriteLine(text: string, rawPath: string, map: LineMap, lineNumber: number, inFrontmatter: boolean, result: CitationMoves, keep: (first: number, last: number) => boolean): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(rawPath, from); at !== -1; at = text.indexOf(rawPath, from)) {
    const end = at + rawPath.length;
    // Only the path itself (not raw/x.md inside raw/x.md.bak or a longer name).
    const before = at === 0 ? '' : text[at - 1];
    const isCitation = inFrontmatter ? before !== '/' && !/[\w.-]/.test(before ?? '') : /<!--\s*from:\s*$/.test(text.slice(0, at));
    LINE_RANGE.lastIndex = end;
    const range = isCitation ? LINE_RANGE.exec(text) : null;
    if (!range) {
      out += text.slice(from, end);
      from = end;
      continue;
    }
    const first = Number(range[1]);
    const last = range[2] === undefined ? first : Number(range[2]);
    const fate = last >= first && !keep(first, last) ? followRange(map, first, last) : ({ kind: 'changed' } as const);
    let replacement = range[0];
    if (fate.kind === 'changed') result.changed.push({ line: lineNumber, first, last });
    else if (fate.first === first) result.unmoved++;
    else {
      result.moved++;
      replacement = range[2] === undefined ? `#L${fate.first}` : `#L${fate.first}-${fate.last}`;
    }
    out += text.slice(from, end) + replacement;
    from = end + range[0].length;
  }
  return out + text.slice(from);
}

/**
 * The citation ranges of `rawPath` a person already moved to where their lines are now, on a page
 * edited by hand since the tool last wrote it (`base`, the tool's text): a line as the tool
 * wrote it but for a range that is exactly where `map` takes the tool's. Following the change
 * would move it a second time. Returned as `first-last` keys.
 */
export function movedByHand(base: string, pageText: string, rawPath: string, map: LineMap): Set<string> {
  const escaped = rawPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Only `<!-- from: … -->` citations: a range named in prose is no citation to keep.
  const ranges = (line: string): Array<{ first: number; last: number }> =>
    [...line.matchAll(new RegExp(`<!--\\s*from:\\s*${escaped}#L(\\d+)(?:-L?(\\d+))?`, 'g'))].map((m) => ({ first: Number(m[1]), last: Number(m[2] ?? m[1]) }));
  const unnumbered = (line: string): string => line.replace(new RegExp(`(<!--\\s*from:\\s*${escaped})#L\\d+(?:-L?\\d+)?`, 'g'), '$1');
  const asWritten = new Map<string, string>();
  for (const line of base.split('\n')) if (ranges(line).length > 0) asWritten.set(unnumbered(line), line);
  const moved = new Set<string>();
  for (const line of pageText.split('\n')) {
    const now = ranges(line);
    const was = now.length > 0 ? asWritten.get(unnumbered(line)) : undefined;
    if (was === undefined || was === line) continue;
    ranges(was).forEach((before, i) => {
      const after = now[i];
      if (!after || (before.first === after.first && before.last === after.last)) return;
      const fate = followRange(map, before.first, before.last);
      if (fate.kind === 'kept' && fate.first === after.first && fate.last === after.last) moved.add(`${after.first}-${after.last}`);
    });
  }
  return moved;
}

/**
 * The page with source `from` named `to` wherever it is cited — `sources` entries in the
 * frontmatter, `<!-- from: … -->` comments in the body — and nowhere else (prose that names
 * the file, perhaps a person's line, is left as written). Returns how many it renamed.
 */
export function renameSourceIn(pageText: string, from: string, to: string): { text: string; renamed: number } {
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const inFrontmatter = new RegExp(`(?<![\\w./-])${escaped}(?![\\w/-]|\\.[\\w])`, 'g');
  const inComment = new RegExp(`(<!--\\s*from:\\s*)${escaped}(?=[#\\s]|-->)`, 'g');
  const frontmatterLines = splitFrontmatter(pageText).bodyLine - 1;
  let renamed = 0;
  const lines = pageText.split('\n').map((line, index) =>
    index < frontmatterLines
      ? line.replace(inFrontmatter, () => (renamed++, to))
      : line.replace(inComment, (_match, lead: string) => (renamed++, `${lead}${to}`)),
  );
  return { text: lines.join('\n'), renamed };
}
