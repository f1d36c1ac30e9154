import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { ConfinedIo } from '../../confine/confined-io.js';
import { unifiedDiffOf } from '../../tools/diff.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import { storeOf } from './decide.js';
import { mergeOnto } from './merge.js';
import { effectLines } from './propose.js';
import { bindsWhole, type PageChangeKind, type ProposedPage } from './proposals.js';
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
  /** What lands with the pages besides them (raw/ removals, a source's record). */
  also?: string[];
  /** It is one change (raw/ removals, a rename): accepted or rejected whole, never page by page. */
  whole?: true;
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
    const view: ProposalView['pages'][number] = { path: page.path, change: page.change, state, diff: diffOf(page) };
    if (state !== 'as-proposed') view.changedSince = unifiedDiffOf([{ path: page.path, before: page.before, after: current ?? '' }]);
    pages.push(view);
  }
  const also = effectLines(proposal.effects);
  const whole = (proposal.effects ?? []).some(bindsWhole);
  return { id: proposal.id, command: proposal.command, title: proposal.title, created: proposal.created, ...(proposal.user ? { user: proposal.user } : {}), ...(also.length ? { also } : {}), ...(whole ? { whole: true as const } : {}), pages };
}

/** The page's diff as patch tools read it: a removed page goes to /dev/null. */
function diffOf(page: ProposedPage): string {
  if (page.change !== 'removed') return unifiedDiffOf([{ path: page.path, before: page.before, after: page.after ?? '' }]);
  return createTwoFilesPatch(`a/${page.path}`, '/dev/null', page.before ?? '', '', undefined, undefined, { context: 3 }).replace(/^=+\n/, '');
}
