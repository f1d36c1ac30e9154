import path from 'node:path';
import { extractText } from '../../sources/extract.js';
import { pagesToMarkStale, type Manifest } from '../../state/manifest.js';
import type { StaleClaim } from '../../state/stale-claims.js';
import { withoutStaleSince } from '../../state/stale.js';
import { writeToolEdit } from '../../state/tool-edit.js';
import { STALE_MARK_PLACE } from '../../state/write-places.js';
import { ConfinedIo } from '../../confine/confined-io.js';
import { sourcesOf } from '../../wiki/page.js';
import type { Session } from '../run/session.js';
import { followChangedSource, type SourceFollowing } from '../sources/follow-source.js';
import { holdsClaim, openStaleClaims } from '../sources/stale-claims-of.js';
import { recordStaleClaims } from '../sources/source-effects.js';

/** Stale sentences handed to the model in the first message; the rest are counted. */
const MESSAGE_MAX_CLAIMS = 40;
const MESSAGE_MAX_EXCERPT = 600;
const MESSAGE_MAX_NEW_RANGES = 20;

/** A raw source's text as read_file shows it (PDF and HTML extracted); undefined when unreadable. */
export async function currentSourceText(root: string, rawPath: string): Promise<string | undefined> {
  try {
    return (await extractText(rawPath, await new ConfinedIo(root).readBytes(path.join(root, rawPath)))).text;
  } catch {
    return undefined;
  }
}

/**
 * A changed source, before the model runs: its citations follow its lines; the claims citing
 * changed lines are listed. A source ingested again unchanged (`--force`) hands over the
 * stale claims still open from its earlier change.
 */
export async function followChange(session: Session, manifest: Manifest, rawPath: string, state: 'new' | 'changed' | 'forced'): Promise<SourceFollowing | undefined> {
  if (state === 'new') return undefined;
  if (state === 'forced') {
    const open = (await openStaleClaims(session.root)).filter((claim) => claim.source === rawPath);
    return open.length === 0 ? undefined : { earlierKnown: true, citationsMoved: 0, rewritten: [], staleClaims: open, uncited: [], newLines: [], offsets: [] };
  }
  const recorded = manifest.sources[rawPath];
  const current = await currentSourceText(session.root, rawPath);
  if (!recorded || current === undefined) return undefined;
  const drawing = session.contentPages().filter((page) => sourcesOf(page.frontmatter).some((s) => s.split('#')[0] === rawPath) || page.body.includes(rawPath));
  const pages = pagesToMarkStale(manifest, rawPath, [], drawing.map((page) => page.path), session.ws.schema.contract);
  return followChangedSource(session, rawPath, recorded.sha256, current, pages);
}

/**
 * What the model is told of the change: how many citations moved, each sentence whose cited
 * lines changed (old text, new text and where the new text is), and the lines new in this
 * version — so it reads only what changed, not the whole source again.
 */
export function staleClaimsMessage(following: SourceFollowing): string[] {
  if (!following.earlierKnown) return [];
  const lines = ['', `Citations whose lines only moved were updated for you (${following.citationsMoved} moved); the line numbers below are the new version's.`];
  if (following.staleClaims.length === 0) lines.push('No cited line changed.');
  else {
    lines.push(
      `${following.staleClaims.length} sentence(s) cite lines that CHANGED. For each: if the new lines still support it, re-cite it to them; if not, rewrite it from the new lines or remove it (use write_file edits for a sentence). A sentence left as it is stays marked stale.`,
    );
    for (const claim of following.staleClaims.slice(0, MESSAGE_MAX_CLAIMS)) {
      const where = claim.nowFirst !== undefined && claim.nowLast !== undefined && claim.nowLast >= claim.nowFirst ? ` (now lines ${claim.nowFirst}-${claim.nowLast}, read_file offset ${following.offsets[claim.nowFirst - 1] ?? 0})` : '';
      lines.push(
        '',
        `- ${claim.page} line ${claim.line}: "${cut(claim.sentence)}" <!-- from: ${claim.source}#L${claim.first}-${claim.last} -->`,
        `  was: ${cut(claim.was) || '(empty)'}`,
        `  now${where}: ${cut(claim.now) || '(removed)'}`,
      );
    }
    if (following.staleClaims.length > MESSAGE_MAX_CLAIMS) lines.push('', `(${following.staleClaims.length - MESSAGE_MAX_CLAIMS} more: \`wiki lint\` lists them all.)`);
  }
  if (following.newLines.length > 0) {
    lines.push('', `Lines new in this version (inserted or rewritten; add what they say to the pages where it belongs):`);
    for (const range of following.newLines.slice(0, MESSAGE_MAX_NEW_RANGES)) lines.push(`- lines ${range.first}-${range.last} (read_file offset ${range.offset}): ${cut(range.text)}`);
    if (following.newLines.length > MESSAGE_MAX_NEW_RANGES) lines.push(`(${following.newLines.length - MESSAGE_MAX_NEW_RANGES} more ranges)`);
  }
  lines.push('', 'You need not read the whole source again: read the lines above where you need more context, then update the pages.');
  return lines;
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MESSAGE_MAX_EXCERPT ? `${flat.slice(0, MESSAGE_MAX_EXCERPT)}…` : flat;
}

/**
 * After the model's run: a stale sentence is settled when its page no longer holds it with
 * the same citation (rewritten, re-cited or removed) — silence settles nothing. The claims
 * left are kept in `.wiki/stale-claims.json`; the pages to mark are those holding them plus
 * those with no line citation of the source (whole-page staleness, as before), and a page
 * whose stale claims are all settled loses its mark.
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
