import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { hashFile, loadManifest } from '../../state/manifest.js';
import type { Session } from '../run/session.js';
import { sourcesDrawnOn } from '../sources/remove-plan.js';
import { recordFollowed, recordRenames, recordStaleClaims, removeSourceFiles } from '../sources/source-effects.js';
import { effectLines } from './propose.js';
import { bindsWhole, type Proposal, type ProposedPage } from './proposals.js';

/**
 * A proposal's effects beyond its pages (`wiki rm`'s raw files and record, a rename's
 * record): done by the accept's run, after its pages, exactly as the direct command does
 * them. Such a proposal is one change: accepted or rejected whole.
 */

/** A proposal with effects, named page by page: refused (exit 2), before anything is read or written. */
export function requireWhole(proposal: Proposal, chosen: readonly ProposedPage[], verb: 'accept' | 'reject'): void {
  const binding = (proposal.effects ?? []).filter(bindsWhole);
  if (binding.length === 0 || chosen.length === proposal.pages.length) return;
  throw new UsageError(
    `proposal ${proposal.id} is one change, its pages with what they rest on (${effectLines(binding).join('; ')}): it is accepted or rejected whole, not page by page`,
    `${verb} all of it: wiki review ${verb} ${proposal.id}`,
  );
}

/** Why the effects cannot be done on the wiki as it is now (the accept is then refused, nothing written); empty when they can. */
export async function effectsRefused(session: Session, proposal: Proposal): Promise<Array<{ path: string; reason: string }>> {
  const refused: Array<{ path: string; reason: string }> = [];
  const planned = new Set(proposal.pages.map((p) => p.path));
  for (const effect of proposal.effects ?? []) {
    if (effect.kind === 'remove-sources') {
      for (const source of effect.sources) {
        const file = path.join(session.root, ...source.split('/'));
        const now = existsSync(file) ? await hashFile(file) : undefined;
        const then = effect.sha256?.[source];
        if (now !== undefined && then !== undefined && now !== then) refused.push({ path: source, reason: `it changed since its removal was proposed: reject this proposal, and run \`wiki rm\` again if it should still go` });
      }
      const removed = new Set(effect.sources);
      // A page that came to draw on a removed source since would be left citing a file gone from raw/.
      for (const page of session.contentPages()) {
        if (planned.has(page.path) || ![...sourcesDrawnOn(page)].some((source) => removed.has(source))) continue;
        refused.push({ path: page.path, reason: `it draws on ${[...sourcesDrawnOn(page)].filter((s) => removed.has(s)).join(', ')} since the proposal was made: reject this proposal and run \`wiki rm\` again` });
      }
    } else if (effect.kind === 'follow-source') {
      const file = path.join(session.root, ...effect.source.split('/'));
      // The citations were moved to that version's lines: recorded only while it is the one in raw/.
      if (!existsSync(file) || (await hashFile(file)) !== effect.sha256) refused.push({ path: effect.source, reason: 'it changed since its citations were moved to its lines: reject this proposal and run `wiki lint --fix` again' });
    } else if (effect.kind === 'rename-sources') {
      const manifest = await loadManifest(session.root);
      for (const { from, to } of effect.renames) {
        const file = path.join(session.root, ...to.split('/'));
        const recorded = manifest.sources[from]?.sha256;
        if (!existsSync(file)) refused.push({ path: to, reason: `${from} was renamed to ${to}, which is no longer in raw/: reject this proposal` });
        // The record moves as it is: only onto the same content, or the new path would pass for ingested unread.
        else if (recorded !== undefined && (await hashFile(file)) !== recorded) refused.push({ path: to, reason: `it changed since it was found to be ${from} renamed: reject this proposal; the next ingest reads it as a new source` });
      }
    }
  }
  return refused;
}

/** Do the effects in the accept's run; what was done, as a person reads it. */
export async function applyEffects(session: Session, proposal: Proposal, onNotice?: (message: string) => void): Promise<string[]> {
  const done: string[] = [];
  for (const effect of proposal.effects ?? []) {
    if (effect.kind === 'remove-sources') {
      const removedPages = proposal.pages.filter((p) => p.change === 'removed').map((p) => p.path);
      await removeSourceFiles(session, effect.sources, removedPages, onNotice);
      done.push(...effectLines([effect]));
    } else if (effect.kind === 'rename-sources') {
      await recordRenames(session, await loadManifest(session.root), effect.renames);
      done.push(...effectLines([effect]));
    } else if (effect.kind === 'follow-source') {
      await recordFollowed(session, effect.source, effect.sha256);
      done.push(...effectLines([effect]));
    } else {
      // Only the claims a page holds once this accept has landed: a page left out holds its old sentence, or none.
      const recorded = await recordStaleClaims(session, effect.source, effect.claims);
      if (recorded.length > 0) done.push(`${recorded.length} sentence(s) citing changed lines of ${effect.source} recorded as stale (wiki lint lists them)`);
    }
  }
  return done;
}
