import path from 'node:path';
import { UsageError } from '../../errors.js';
import { isVisibleTo, ProposalStore, type Proposal, type ProposedPage } from './proposals.js';

/** The proposal named `id`, as `user` may see it; a usage error (exit 2) otherwise. */
export async function proposalFor(store: ProposalStore, id: string | undefined, user: string | undefined): Promise<Proposal> {
  if (id === undefined) {
    const waiting = (await store.list()).filter((p) => isVisibleTo(p, user));
    const oldest = waiting[0];
    if (!oldest) throw new UsageError('no proposal is waiting', 'a run with --review (or `review: true` in wiki.config.json) leaves one');
    return oldest;
  }
  const proposal = await store.load(id);
  if (!proposal) throw new UsageError(`no proposal "${id}"`, 'list the waiting ones with `wiki review`');
  if (!isVisibleTo(proposal, user)) {
    throw new UsageError(`proposal ${id} is ${proposal.user}'s`, `only they accept or reject it (run as --user ${proposal.user})`);
  }
  return proposal;
}

/** The proposal's pages named by path or key (all when none is named); an unknown name is a usage error. */
export function pagesNamed(proposal: Proposal, names: readonly string[]): ProposedPage[] {
  if (names.length === 0) return proposal.pages;
  const chosen: ProposedPage[] = [];
  for (const name of names) {
    const page = proposal.pages.find((p) => p.path === name || path.posix.basename(p.path, '.md') === name);
    if (!page) {
      throw new UsageError(`proposal ${proposal.id} has no page "${name}"`, `its pages: ${proposal.pages.map((p) => p.path).join(', ')}`);
    }
    if (!chosen.includes(page)) chosen.push(page);
  }
  return chosen;
}

/** What is left of a proposal once `settled` pages are taken out: saved, or removed when empty. */
export async function keepRest(store: ProposalStore, proposal: Proposal, settled: readonly ProposedPage[]): Promise<number> {
  const rest = proposal.pages.filter((p) => !settled.includes(p));
  if (rest.length === 0) await store.remove(proposal.id);
  else await store.save({ ...proposal, pages: rest });
  return rest.length;
}
