import type { FileChange } from '../../tools/diff.js';
import type { ProposalEffect } from '../review/proposals.js';

/**
 * Where a run under `--review` keeps what it would have changed: the run works against an
 * overlay like a dry run, and on finishing hands the overlay's changes here instead of
 * throwing them away (operations/review/propose.ts).
 */
export interface ProposalSink {
  /** `written`: the pages the run wrote through its tools and writers (not the overlay-only marks). */
  keep(run: { op: string; title: string; runId: string; user: string | undefined; changes: FileChange[]; written: { created: string[]; updated: string[] } }): Promise<void>;
  /** Something the run does besides its pages, done only when the proposal is accepted (a stale-claims record). */
  alsoOnAccept(effect: ProposalEffect): void;
}
