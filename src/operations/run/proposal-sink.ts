import type { FileChange } from '../../tools/diff.js';

/**
 * Where a run under `--review` keeps what it would have changed: the run works against an
 * overlay like a dry run, and on finishing hands the overlay's changes here instead of
 * throwing them away (operations/review/propose.ts).
 */
export interface ProposalSink {
  keep(run: { op: string; title: string; runId: string; user: string | undefined; changes: FileChange[] }): Promise<void>;
}
