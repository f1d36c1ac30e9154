import { isWikiPage } from '../../state/write-places.js';
import type { FileChange } from '../../tools/diff.js';
import { isSpecialPage, type Contract } from '../../wiki/contract.js';
import { LOG_HEADING } from '../../wiki/log.js';
import type { ProposalSink } from '../run/proposal-sink.js';
import { isVisibleTo, ProposalStore, type PageChangeKind, type Proposal, type ProposalEffect, type ProposedPage } from './proposals.js';

/** What a command says about a proposal it left: `wiki review --json`'s shape, one entry. */
export interface ProposalSummary {
  id: string;
  command: string;
  pages: Array<{ path: string; change: PageChangeKind }>;
  created: string;
  /** What else lands with it (raw/ removals, a source's record), when anything does. */
  also?: string[];
}

export function summaryOf(proposal: Proposal): ProposalSummary {
  const also = effectLines(proposal.effects);
  return { id: proposal.id, command: proposal.command, pages: proposal.pages.map(({ path, change }) => ({ path, change })), created: proposal.created, ...(also.length ? { also } : {}) };
}

/**
 * A command run under `--review`: each of its runs keeps its overlay as a proposal. Only
 * content pages are kept: index.md and log.md are the tool's and are written afresh, for
 * what lands, when a proposal is accepted. A run that would change no page leaves none.
 */
export class ReviewRequest {
  readonly saved: ProposalSummary[] = [];
  /** Whether the command writes pages at all (a query without --save, or lint without --fix, does not). */
  private writing = false;

  /** The command writes pages: it runs under review, and its report says what waits. */
  forCommand(): this {
    this.writing = true;
    return this;
  }

  get used(): boolean {
    return this.writing;
  }

  constructor(
    readonly store: ProposalStore,
    private readonly contract: Contract,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** How many proposals `user` may act on wait now, this command's included. */
  async waiting(user: string | undefined): Promise<number> {
    return (await this.store.list()).filter((p) => isVisibleTo(p, user)).length;
  }

  /** The sink for one run; an ingest names its source, recorded as ingested when its pages are accepted. */
  forRun(source?: { path: string; sha256: string }): ProposalSink {
    const effects: ProposalEffect[] = [];
    return {
      alsoOnAccept: (effect) => effects.push(effect),
      keep: async (run) => {
        const pages = run.changes.filter((c) => isWikiPage(c.path) && !isSpecialPage(this.contract, c.path)).map(pageOf);
        // A record alone is no proposal: it only follows pages that land.
        if (pages.length === 0) return;
        const recorded = source === undefined ? undefined : { ...source, pages: run.written };
        await this.propose(run, pages, { log: logLinesOf(run.changes.find((c) => c.path === this.contract.log)), source: recorded, effects });
      },
    };
  }

  /**
   * Keep one run's pages as a proposal — the way a command that plans its edits without an
   * overlay (`wiki rm`, `wiki promote`) proposes them, removed pages included. A run that
   * would change no page and do nothing else leaves none.
   */
  async propose(
    run: { op: string; title: string; runId: string; user: string | undefined },
    pages: ProposedPage[],
    extra: { log: string[]; source?: Proposal['source']; effects?: ProposalEffect[] | undefined },
  ): Promise<void> {
    const effects = extra.effects?.length ? extra.effects : undefined;
    if (pages.length === 0 && effects === undefined) return;
    const proposal: Proposal = { version: 1, id: run.runId, command: run.op, title: run.title, created: this.now().toISOString(), user: run.user, source: extra.source, log: extra.log, pages, effects };
    for (const key of ['user', 'source', 'effects'] as const) if (proposal[key] === undefined) delete proposal[key];
    await this.store.save(proposal);
    this.saved.push(summaryOf(proposal));
  }
}

/** What an effect does, as a person reads it in a listing. */
export function effectLines(effects: readonly ProposalEffect[] | undefined): string[] {
  return (effects ?? []).flatMap((effect) => {
    if (effect.kind === 'remove-sources') return effect.sources.map((source) => `${source} removed from raw/, its record and facts`);
    if (effect.kind === 'rename-sources') return effect.renames.map(({ from, to }) => `${from} recorded as renamed to ${to}`);
    if (effect.kind === 'follow-source') return [`the citations of ${effect.source} recorded as following its version ${effect.sha256.slice(0, 12)} (not ingested: its new lines wait for a model)`];
    return effect.claims.length > 0 ? [`${effect.claims.length} sentence(s) citing changed lines of ${effect.source} recorded as stale, as their pages land`] : [];
  });
}

function pageOf(change: FileChange): Proposal['pages'][number] {
  return change.before === undefined ? { path: change.path, change: 'created', after: change.after } : { path: change.path, change: 'updated', before: change.before, after: change.after };
}

/** The details of the entry the run appended to log.md (its run id aside): one `- run: ID · a · b` line, or older bullets. */
function logLinesOf(change: FileChange | undefined): string[] {
  if (!change) return [];
  const before = change.before ?? '';
  const added = change.after.startsWith(before) ? change.after.slice(before.length) : change.after;
  return added
    .split('\n')
    .filter((line) => line.startsWith('- ') && !LOG_HEADING.test(line))
    .flatMap((line) => line.slice(2).split(' · '))
    .filter((line) => !line.startsWith('run: '));
}
