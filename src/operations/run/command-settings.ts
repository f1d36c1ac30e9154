import type { AgentListener } from '../../agent/events.js';
import type { ChatModel, Usage } from '../../agent/types.js';
import type { ReviewRequest } from '../review/propose.js';
import type { RunBudget } from './agent-run.js';

/**
 * What every command that runs the model is handed by its command line, once: the commands'
 * own options extend it rather than declaring these fields again at each hop (query,
 * translate, lint's review, ingest).
 */
export interface CommandRunSettings {
  /** Run against an in-memory overlay; nothing is written (`--dry-run`, or `--review`). */
  dryRun: boolean;
  /** How long to wait for another run holding the workspace lock. */
  waitSeconds: number;
  /** `maxTokens` / `maxCost` for the whole command. */
  budget: RunBudget;
  /** The model, created on first use: a run that needs none needs no key. */
  model: () => ChatModel;
  price?: (usage: Usage) => number | undefined;
  listener?: AgentListener;
  signal?: AbortSignal;
  onNotice?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
  /** `--review` (with `dryRun`): what the run writes waits in a proposal. */
  review?: ReviewRequest | undefined;
  /** The model may drop what a human changed on a page (`--overwrite-edits`). */
  overwriteEdits?: boolean;
}
