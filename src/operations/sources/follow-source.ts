import { mapLines, sourceLines } from '../../sources/line-map.js';
import type { StaleClaim } from '../../state/stale-claims.js';
import { writeToolEdit } from '../../state/tool-edit.js';
import { SOURCE_FOLLOW_PLACE } from '../../state/write-places.js';
import { isoDate } from '../../util/dates.js';
import { moveCitations, movedByHand } from '../../sources/citation-moves.js';
import { humanEditBase } from '../../state/human-edits.js';
import type { Session } from '../run/session.js';
import { earlierSourceText } from './earlier-text.js';
import { lineOffsets, newLineRanges, staleClaimsOf } from './stale-claims-of.js';

export interface SourceFollowing {
  /** Whether the text the pages were written from was found (kept under .wiki/ or in git). */
  earlierKnown: boolean;
  citationsMoved: number;
  /** Pages whose citations were rewritten. */
  rewritten: string[];
  /** Sentences whose cited lines changed. */
  staleClaims: StaleClaim[];
  /** Pages drawing on the source with no line citation of it: stale as a whole, as before. */
  uncited: string[];
  /** Lines new in this version (inserted or rewritten), with the read_file offset where each range starts. */
  newLines: Array<{ first: number; last: number; offset: number; text: string }>;
  /** The read_file offset where each current line starts (index 0 is line 1). */
  offsets: number[];
  /** The citations numbered a version later than the ingested one: `wiki lint --fix` had moved them without a model. */
  followedEarlier?: boolean;
  /** Citations a person had already renumbered to where their lines went: left as written, never moved twice. */
  movedByHand: number;
}

/** Which versions of a source (by sha256) the citations number, and which one was last ingested. */
export interface SourceVersions {
  numbered: string;
  ingested: string;
}

/**
 * Before any model runs on a changed source: every citation of it whose lines moved but did
 * not change follows them, and the sentences citing lines that changed are listed as stale;
 * the citations of claims already stale (`open`) are left as they are.
 * Citations are moved from the version they number (`versions.numbered`); the lines new to a
 * model are those new since the version it last read (`versions.ingested`), so a follow
 * without a model neither moves a citation twice nor hides a change from the next ingest.
 * `pages`: the pages that draw on the source (produced from it, or listing or citing it).
 */
export async function followChangedSource(
  session: Session,
  source: string,
  versions: SourceVersions,
  current: string,
  pages: readonly string[],
  open: readonly StaleClaim[] = [],
): Promise<SourceFollowing> {
  const result: SourceFollowing = { earlierKnown: false, citationsMoved: 0, movedByHand: 0, rewritten: [], staleClaims: [], uncited: [], newLines: [], offsets: [] };
  const earlier = await earlierSourceText(session.root, source, versions.numbered);
  if (earlier === undefined) {
    result.uncited = [...pages];
    return result;
  }
  result.earlierKnown = true;
  const map = mapLines(earlier, current);
  const since = isoDate();
  result.offsets = lineOffsets(current);
  const lines = sourceLines(current);
  let sinceIngested = map;
  if (versions.ingested !== versions.numbered) {
    result.followedEarlier = true;
    const ingested = await earlierSourceText(session.root, source, versions.ingested);
    if (ingested !== undefined) sinceIngested = mapLines(ingested, current);
  }
  result.newLines = newLineRanges(sinceIngested)
    .filter((range) => lines.slice(range.first - 1, range.last).some((line) => line.trim() !== ''))
    .map((range) => ({ ...range, offset: result.offsets[range.first - 1] ?? 0, text: lines.slice(range.first - 1, range.last).join('\n') }));
  for (const page of [...new Set(pages)].sort()) {
    if (!SOURCE_FOLLOW_PLACE.allows(page)) continue;
    const text = await session.readIfExists(page);
    if (text === undefined) continue;
    // A stale claim's citation numbers the version it was written from, not `versions.numbered`: it stays for its reader.
    const waiting = (first: number, last: number): boolean => open.some((claim) => claim.page === page && claim.first === first && claim.last === last);
    // A person who renumbered a citation to where its lines went already did the move.
    const base = (await humanEditBase(session.root, page, text))?.base;
    const byHand = base === undefined ? new Set<string>() : movedByHand(base, text, source, map);
    result.movedByHand += byHand.size;
    const held = (first: number, last: number): boolean => byHand.has(`${first}-${last}`) || waiting(first, last);
    const moves = moveCitations(text, source, map, held);
    if (moves.moved + moves.unmoved + moves.changed.length === 0) {
      result.uncited.push(page);
      continue;
    }
    result.staleClaims.push(...staleClaimsOf(page, text, source, earlier, current, map, since).filter((claim) => !held(claim.first, claim.last)));
    if (moves.moved === 0) continue;
    result.citationsMoved += moves.moved;
    result.rewritten.push(page);
    if (session.options.dryRun) await session.fs.writeText(session.abs(page), moves.text);
    else {
      session.versions.changing(page, text);
      // The tool's own copy of a hand-edited page moves too: the next follow tells its moves from a person's.
      const ownCopyAfter = base === undefined ? undefined : moveCitations(base, source, map, waiting).text;
      await writeToolEdit(session.root, SOURCE_FOLLOW_PLACE, page, text, moves.text, session.run, ownCopyAfter);
      session.alsoChanged.add(page);
    }
  }
  await session.reloadPages(result.rewritten);
  return result;
}
