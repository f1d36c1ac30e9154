import { claimsOf } from '../../facts/claims.js';
import { followRange, sourceLines, type LineMap } from '../../sources/line-map.js';
import { loadStaleClaims, type StaleClaim } from '../../state/stale-claims.js';
import { readPage } from '../../wiki/page-read.js';
import { splitFrontmatter } from '../../wiki/frontmatter-split.js';

/** Lines of the current text shown as what replaced a changed range; more are cut. */
const NOW_MAX_LINES = 40;

/**
 * The sentences of a page whose citations of `source` point at lines the change touched,
 * each with the old cited text and what stands there now. Pure: the same page, texts and
 * date give the same list on every clone.
 */
export function staleClaimsOf(page: string, pageText: string, source: string, earlier: string, current: string, map: LineMap, since: string): StaleClaim[] {
  const { body, bodyLine } = splitFrontmatter(pageText);
  const before = sourceLines(earlier);
  const after = sourceLines(current);
  const stale: StaleClaim[] = [];
  for (const claim of claimsOf(body)) {
    for (const citation of claim.citations) {
      if (citation.file !== source || citation.first === undefined) continue;
      const last = citation.last ?? citation.first;
      if (followRange(map, citation.first, last).kind !== 'changed') continue;
      stale.push({
        page,
        sentence: claim.text,
        line: bodyLine + claim.line - 1,
        source,
        first: citation.first,
        last,
        was: before.slice(citation.first - 1, last).join('\n'),
        ...replacementOf(map, citation.first, last, after),
        since,
      });
      break;
    }
  }
  return stale;
}

/** The current lines between the nearest unchanged lines around the old range: what replaced it, and where it is now. */
function replacementOf(map: LineMap, first: number, last: number, after: readonly string[]): { now: string; nowFirst: number; nowLast: number } {
  let start = 1;
  for (let line = first - 1; line >= 1; line--) {
    const kept = map.newLineOf(line);
    if (kept !== undefined) {
      start = kept + 1;
      break;
    }
  }
  let end = after.length;
  for (let line = last + 1; line <= map.oldLineCount; line++) {
    const kept = map.newLineOf(line);
    if (kept !== undefined) {
      end = kept - 1;
      break;
    }
  }
  const lines = after.slice(start - 1, Math.max(start - 1, end));
  const now = lines.length > NOW_MAX_LINES ? [...lines.slice(0, NOW_MAX_LINES), `[… ${lines.length - NOW_MAX_LINES} more lines]`].join('\n') : lines.join('\n');
  return { now, nowFirst: start, nowLast: Math.max(start - 1, end) };
}

/** Ranges of current lines that no earlier line maps to: text new in this version (inserted or rewritten). */
export function newLineRanges(map: LineMap): Array<{ first: number; last: number }> {
  const mapped = new Set<number>();
  for (let line = 1; line <= map.oldLineCount; line++) {
    const now = map.newLineOf(line);
    if (now !== undefined) mapped.add(now);
  }
  const ranges: Array<{ first: number; last: number }> = [];
  for (let line = 1; line <= map.newLineCount; line++) {
    if (mapped.has(line)) continue;
    const previous = ranges.at(-1);
    if (previous && previous.last === line - 1) previous.last = line;
    else ranges.push({ first: line, last: line });
  }
  return ranges;
}

/** The character offset where each 1-based line of `text` starts, as read_file counts its offsets. */
export function lineOffsets(text: string): number[] {
  const offsets = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) offsets.push(at + 1);
  return offsets;
}

/** Where the page still holds the stale sentence with the same citation (its 1-based file line); undefined when rewritten, re-cited or removed. */
export function heldClaimLine(pageText: string, claim: StaleClaim): number | undefined {
  const { body, bodyLine } = splitFrontmatter(pageText);
  const held = claimsOf(body).find(
    (candidate) => candidate.text === claim.sentence && candidate.citations.some((c) => c.file === claim.source && c.first === claim.first && (c.last ?? c.first) === claim.last),
  );
  return held === undefined ? undefined : bodyLine + held.line - 1;
}

export function holdsClaim(pageText: string, claim: StaleClaim): boolean {
  return heldClaimLine(pageText, claim) !== undefined;
}

/** The kept stale claims their pages still hold, at their lines now (a claim settled by hand — rewritten, re-cited, removed — is no longer listed). */
export async function openStaleClaims(root: string): Promise<StaleClaim[]> {
  const open: StaleClaim[] = [];
  for (const claim of await loadStaleClaims(root)) {
    const text = readPage(root, claim.page);
    const line = text === undefined ? undefined : heldClaimLine(text, claim);
    if (line !== undefined) open.push({ ...claim, line });
  }
  return open;
}
