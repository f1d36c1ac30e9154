import { markStale, pagesToMarkStale, type Manifest } from '../../state/manifest.js';
import { sameClaim, type StaleClaim } from '../../state/stale-claims.js';
import { withoutStaleSince, withStaleSince } from '../../state/stale.js';
import { writeToolEdit } from '../../state/tool-edit.js';
import { STALE_MARK_PLACE } from '../../state/write-places.js';
import { isoDate } from '../../util/dates.js';
import { sourcesOf } from '../../wiki/page.js';
import type { Session } from '../run/session.js';
import { currentSourceText } from './earlier-text.js';
import { followChangedSource, type SourceFollowing } from './follow-source.js';
import { holdsClaim, openStaleClaims } from './stale-claims-of.js';
import { recordStaleClaims } from './source-effects.js';

/**
 * The deterministic steps that follow a changed source, shared by `wiki ingest` (around its
 * model run) and `wiki lint --fix` (with no model): citations follow the moved lines, the
 * sentences citing changed lines are recorded as stale claims, and pages are marked.
 */

/**
 * A changed source: its citations follow its lines from the version they number now (the
 * ingested one, or the one `wiki lint --fix` last followed); the claims citing changed lines
 * are listed, with those an earlier follow recorded and the pages still hold. A source ingested
 * again unchanged (`--force`) hands over the stale claims still open from its earlier change.
 */
export async function followChange(session: Session, manifest: Manifest, rawPath: string, state: 'new' | 'changed' | 'forced'): Promise<SourceFollowing | undefined> {
  if (state === 'new') return undefined;
  const open = (await openStaleClaims(session.root)).filter((claim) => claim.source === rawPath);
  if (state === 'forced') {
    return open.length === 0 ? undefined : { earlierKnown: true, citationsMoved: 0, movedByHand: 0, rewritten: [], staleClaims: open, uncited: [], newLines: [], offsets: [] };
  }
  const recorded = manifest.sources[rawPath];
  const current = await currentSourceText(session.root, rawPath);
  if (!recorded || current === undefined) return undefined;
  const drawing = session.contentPages().filter((page) => sourcesOf(page.frontmatter).some((s) => s.split('#')[0] === rawPath) || page.body.includes(rawPath));
  const pages = pagesToMarkStale(manifest, rawPath, [], drawing.map((page) => page.path), session.ws.schema.contract);
  const following = await followChangedSource(session, rawPath, { numbered: recorded.followed ?? recorded.sha256, ingested: recorded.sha256 }, current, pages, open);
  if (following.earlierKnown) following.staleClaims.push(...open.filter((claim) => !following.staleClaims.some((found) => sameClaim(found, claim))));
  return following;
}

/**
 * After the model's run (or at once, with no model): a stale sentence is settled when its
 * page no longer holds it with the same citation (rewritten, re-cited or removed) — silence
 * settles nothing. The claims left are kept in `.wiki/stale-claims.json`; the pages to mark
 * are those holding them plus those with no line citation of the source (whole-page
 * staleness, as before), and a page whose stale claims are all settled loses its mark.
 */
export async function settleStaleClaims(
  session: Session,
  rawPath: string,
  following: SourceFollowing,
  rewrittenByRun: readonly string[],
): Promise<{ toMark: string[]; settled: number }> {
  let open: StaleClaim[] = [];
  if (!session.options.dryRun) open = await recordStaleClaims(session, rawPath, following.staleClaims);
  else {
    for (const claim of following.staleClaims) {
      const text = await session.readIfExists(claim.page);
      if (text !== undefined && holdsClaim(text, claim)) open.push(claim);
    }
    // Under review the record waits with the pages, and is made for those that land.
    session.options.review?.alsoOnAccept({ kind: 'stale-claims', source: rawPath, claims: open });
  }
  if (!session.options.dryRun || session.options.review) await clearSettledMarks(session, following, open);
  const rewritten = new Set(rewrittenByRun);
  const uncited = following.uncited.filter((page) => !rewritten.has(page));
  return { toMark: [...new Set([...open.map((claim) => claim.page), ...uncited])].sort(), settled: following.staleClaims.length - open.length };
}

/** Pages whose stale sentences were all settled lose `stale_since`: the mark means "holds stale claims". */
async function clearSettledMarks(session: Session, following: SourceFollowing, open: readonly StaleClaim[]): Promise<void> {
  const holding = new Set(open.map((claim) => claim.page));
  const cleared: string[] = [];
  for (const page of new Set(following.staleClaims.map((claim) => claim.page))) {
    if (holding.has(page)) continue;
    const text = await session.readIfExists(page);
    const without = text === undefined ? undefined : withoutStaleSince(page, text);
    if (text === undefined || without === undefined) continue;
    if (session.options.dryRun) await session.fs.writeText(session.abs(page), without);
    else {
      session.versions.changing(page, text);
      await writeToolEdit(session.root, STALE_MARK_PLACE, page, text, without, session.run);
      session.alsoChanged.add(page);
    }
    cleared.push(page);
  }
  await session.reloadPages(cleared);
}

/** `stale_since` on each page, in the run: on disk (recorded for undo), or in a dry run's overlay so the printed diff shows it. */
export async function markStaleInRun(session: Session, pagePaths: readonly string[]): Promise<{ marked: string[]; refused: string[] }> {
  let result: { marked: string[]; refused: string[] };
  if (session.options.dryRun) result = { marked: await markStaleInOverlay(session, pagePaths), refused: [] };
  else {
    // Runs beside this one that never saw these pages keep the version before the mark.
    for (const page of pagePaths.filter(STALE_MARK_PLACE.allows)) session.versions.changing(page, await session.readIfExists(page));
    const marking = await markStale(session.root, [...pagePaths], isoDate(), session.run);
    result = { marked: marking.marked, refused: marking.refused };
    for (const page of marking.marked) session.alsoChanged.add(page);
  }
  await session.reloadPages(result.marked);
  return result;
}

/** A dry run's stale marks go to its overlay, so the printed diff shows them. */
export async function markStaleInOverlay(session: Session, pagePaths: readonly string[]): Promise<string[]> {
  const marked: string[] = [];
  for (const pagePath of [...new Set(pagePaths)].sort()) {
    if (!STALE_MARK_PLACE.allows(pagePath)) continue;
    const abs = session.abs(pagePath);
    if (!(await session.fs.exists(abs))) continue;
    const updated = withStaleSince(pagePath, await session.fs.readText(abs), isoDate());
    if (updated === 'unparseable' || updated === 'already-stale') continue;
    await session.fs.writeText(abs, updated);
    marked.push(pagePath);
  }
  return marked;
}
