import { UsageError } from '../../errors.js';
import { acquireLock } from '../../state/lock.js';
import { lockOptions } from '../ingest/ingest.js';
import { requireWhole } from './accept-effects.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import type { DecideOptions } from './accept.js';
import { summaryOf, type ProposalSummary } from './propose.js';
import { isVisibleTo, ProposalStore } from './proposals.js';
import { keepRest, pagesNamed, proposalFor } from './select.js';

export function storeOf(ws: WorkspaceHandle): ProposalStore {
  return new ProposalStore(ws.root, ws.config.config.reviewFolder);
}

/** `wiki review`: the proposals `user` may act on (the team's and their own), oldest first, with the title of the run that made each. */
export async function waitingProposals(ws: WorkspaceHandle, user: string | undefined): Promise<Array<ProposalSummary & { title: string }>> {
  return (await storeOf(ws).list()).filter((p) => isVisibleTo(p, user)).map((p) => ({ ...summaryOf(p), title: p.title }));
}

export interface RejectReport {
  id: string;
  rejected: string[];
  remaining: number;
}

/** `wiki review reject ID [PAGE…]`: drop pages from the proposal. Nothing under wiki/ is written, no log entry. */
export async function rejectProposal(ws: WorkspaceHandle, id: string, options: DecideOptions): Promise<RejectReport> {
  const store = storeOf(ws);
  // Held so a reject never interleaves with an accept of the same proposal.
  const lock = await acquireLock(ws.root, lockOptions('review reject', options));
  lock.releaseOnExit();
  try {
    const proposal = await proposalFor(store, id, options.user);
    const chosen = pagesNamed(proposal, options.pages);
    requireWhole(proposal, chosen, 'reject');
    const remaining = await keepRest(store, proposal, chosen);
    return { id: proposal.id, rejected: chosen.map((p) => p.path), remaining };
  } finally {
    await lock.release();
  }
}

/** `--older-than 30d`: days (d), hours (h) or weeks (w), in milliseconds. */
export function parseAge(raw: string): number {
  const match = /^(\d+)\s*([dhw])$/.exec(raw.trim());
  if (!match) throw new UsageError(`--older-than takes an age like 30d, 12h or 2w, not "${raw}"`);
  const unit = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[match[2] as 'h' | 'd' | 'w'];
  return Number(match[1]) * unit;
}

/** `wiki review prune --older-than AGE`: drop the proposals `user` may act on made before now − AGE. */
export async function pruneProposals(ws: WorkspaceHandle, ageMs: number, options: DecideOptions & { now?: Date }): Promise<{ pruned: ProposalSummary[]; remaining: number }> {
  const store = storeOf(ws);
  const lock = await acquireLock(ws.root, lockOptions('review prune', options));
  lock.releaseOnExit();
  try {
    const cutoff = (options.now ?? new Date()).getTime() - ageMs;
    const visible = (await store.list()).filter((p) => isVisibleTo(p, options.user));
    const old = visible.filter((p) => Date.parse(p.created) < cutoff);
    for (const proposal of old) await store.remove(proposal.id);
    return { pruned: old.map(summaryOf), remaining: visible.length - old.length };
  } finally {
    await lock.release();
  }
}
