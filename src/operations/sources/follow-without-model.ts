import { loadManifest } from '../../state/manifest.js';
import type { Session } from '../run/session.js';
import { citationsBehind, sourceChanges } from './source-changes.js';
import { recordFollowed } from './source-effects.js';
import { followChange, markStaleInRun, settleStaleClaims } from './source-following.js';

/** What following one changed source without a model did. */
export interface FollowedSource {
  source: string;
  /** The version the citations number now. */
  sha256: string;
  citationsMoved: number;
  /** Citations a person had already renumbered to the new lines: left as they are. */
  movedByHand: number;
  /** Pages whose citations were rewritten. */
  rewritten: string[];
  /** Sentences left citing changed lines (recorded as stale claims). */
  staleClaims: number;
  staleMarked: string[];
}

/**
 * `wiki lint --fix` (with or without a model): each source whose citations number an earlier
 * version than the one in raw/ is followed exactly as `wiki ingest` follows it before its
 * model runs — citations moved, stale claims recorded, pages marked — and the ingest record
 * says which version the citations follow now. The source is not thereby ingested: its new
 * lines still wait for a model, and the next ingest hands them over without moving anything
 * twice. A source whose earlier text is unknown is left alone (nothing to diff against).
 * In a dry run the moves and marks go to the overlay; under review the record waits with
 * the proposal.
 */
export async function followChangedSources(session: Session, onNotice?: (message: string) => void): Promise<FollowedSource[]> {
  const manifest = await loadManifest(session.root);
  const followed: FollowedSource[] = [];
  for (const change of (await sourceChanges(session.root, manifest)).filter(citationsBehind)) {
    const following = await followChange(session, manifest, change.source, 'changed');
    if (!following?.earlierKnown) continue;
    const settled = await settleStaleClaims(session, change.source, following, []);
    const marking = await markStaleInRun(session, settled.toMark);
    for (const why of marking.refused) onNotice?.(`not marked stale: ${why}`);
    if (!session.options.dryRun) await recordFollowed(session, change.source, change.current);
    else session.options.review?.alsoOnAccept({ kind: 'follow-source', source: change.source, sha256: change.current });
    followed.push({
      source: change.source,
      sha256: change.current,
      citationsMoved: following.citationsMoved,
      movedByHand: following.movedByHand,
      rewritten: following.rewritten,
      staleClaims: following.staleClaims.length - settled.settled,
      staleMarked: marking.marked,
    });
  }
  return followed;
}

/** The repair lines of the follows, as `wiki lint --fix` reports them and its log entry lists them. */
export function followedLines(followed: readonly FollowedSource[]): string[] {
  return followed.map(
    (f) =>
      `${f.source}: citations moved: ${f.citationsMoved} on ${f.rewritten.length} page(s)${f.movedByHand ? ` (${f.movedByHand} already renumbered by hand, left as they are)` : ''}; stale claims: ${f.staleClaims}${f.staleMarked.length ? `; marked stale: ${f.staleMarked.join(', ')}` : ''} (not ingested: \`wiki ingest ${f.source}\` reads its new lines)`,
  );
}
