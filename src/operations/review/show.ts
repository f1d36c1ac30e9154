import path from 'node:path';
import { ConfinedIo } from '../../confine/confined-io.js';
import { unifiedDiffOf } from '../../tools/diff.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import { storeOf } from './decide.js';
import { mergeOnto } from './merge.js';
import { effectLines } from './propose.js';
import type { PageChangeKind } from './proposals.js';
import { pagesNamed, proposalFor } from './select.js';

/**
 * Whether a page can land as proposed: `as-proposed` (unchanged on disk since), `merges`
 * (changed since, and the proposal applies cleanly onto it), `conflicts` (changed since in
 * the proposal's lines: accepting it is refused with `changedSince`).
 */
export type LandingState = 'as-proposed' | 'merges' | 'conflicts';

export interface ProposalView {
  id: string;
  command: string;
  title: string;
  created: string;
  user?: string;
  /** What lands with the pages besides them (raw/ removals, a source's record): the proposal is then accepted whole. */
  also?: string[];
  pages: Array<{ path: string; change: PageChangeKind; state: LandingState; diff: string; changedSince?: string }>;
}

/** `wiki review show [ID] [PAGE…]`: each page's diff, and whether it still lands as proposed. */
export async function showProposal(ws: WorkspaceHandle, id: string | undefined, pageNames: string[], user: string | undefined): Promise<ProposalView> {
  const proposal = await proposalFor(storeOf(ws), id, user);
  const io = new ConfinedIo(ws.root);
  const pages: ProposalView['pages'] = [];
  for (const page of pagesNamed(proposal, pageNames)) {
    const current = (await io.readIfExists(path.join(ws.root, page.path)))?.toString('utf8');
    const merged = mergeOnto(page.before, current, page.after);
    const state: LandingState = merged === undefined ? 'conflicts' : current === page.before || current === page.after ? 'as-proposed' : 'merges';
    const view: ProposalView['pages'][number] = { path: page.path, change: page.change, state, diff: unifiedDiffOf([{ path: page.path, before: page.before, after: page.after ?? '' }]) };
    if (state !== 'as-proposed') view.changedSince = unifiedDiffOf([{ path: page.path, before: page.before, after: current ?? '' }]);
    pages.push(view);
  }
  const also = effectLines(proposal.effects);
  return { id: proposal.id, command: proposal.command, title: proposal.title, created: proposal.created, ...(proposal.user ? { user: proposal.user } : {}), ...(also.length ? { also } : {}), pages };
}
