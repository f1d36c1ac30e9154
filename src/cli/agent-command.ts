import { Option, type Command } from 'commander';
import type { ChatModel, Usage } from '../agent/types.js';
import type { RunBudget } from '../operations/run/agent-run.js';
import { LockError, parseWaitSeconds } from '../state/lock.js';
import { addConfigFlags, configFlagLayer } from './config-flags.js';
import { openWorkspace, outputFor, type Workspace } from './context.js';
import { load } from './lazy.js';
import type { Output } from './output.js';
import type { ReviewRequest } from '../operations/review/propose.js';
import type { CommandRunSettings } from '../operations/run/command-settings.js';
import { addReviewOptions, proposalsOutcome, reviewRequestFor } from './review-notice.js';

/** Flags shared by every command that runs the model, besides its config flags (cli/config-flags.ts). */
export interface AgentFlags {
  /** Seconds, parsed by waitOption(). */
  wait?: number;
  dryRun?: boolean;
  overwriteEdits?: boolean;
  /** `--review` / `--no-review`: undefined leaves `review` in wiki.config.json to decide. */
  review?: boolean;
}

export function addAgentOptions(command: Command, options: { dryRun: boolean }): Command {
  addConfigFlags(command, ['provider', 'model', 'baseUrl', 'maxTurns', 'maxTokens', 'maxCost', 'lang']);
  command.addOption(waitOption());
  if (options.dryRun) {
    command.option('--dry-run', 'run against an overlay: change nothing, print the diff of what would change');
    addReviewOptions(command);
  }
  command.option('--overwrite-edits', 'for this run, let the model drop lines a human added to a page (refused by default)');
  return command;
}

export function budgetOf(ws: Workspace): RunBudget {
  const c = ws.config.config;
  return {
    maxTurns: c.maxTurns,
    maxOutputTokens: c.maxOutputTokens,
    maxTokens: c.maxTokens,
    maxCost: c.maxCost,
  };
}

/** `--wait SECONDS`, parsed the one way for every command that takes the workspace lock. */
export function waitOption(): Option {
  return new Option('--wait <seconds>', 'wait this long for another run holding the workspace lock').argParser(parseWaitSeconds).default(0);
}

/**
 * The model, created on first use so runs that need none (all up to date) need no key.
 * The provider SDKs are loaded here, not at start-up, so other commands start fast.
 */
export async function lazyModel(ws: Workspace): Promise<{ get: () => ChatModel; pricer: (usage: Usage) => number | undefined; localServer: boolean }> {
  const [{ createChatModel }, { makePricer }, { chooseProvider }, { isLocalServer }] = await load('providers', 'pricing', 'providerChoice', 'localServer');
  let model: ChatModel | undefined;
  const get = (): ChatModel => (model ??= createChatModel(ws.config, process.env));
  // A local server's model has no list price, whatever name it answers to.
  const local = isLocalServer(chooseProvider(ws.config));
  return {
    get,
    localServer: local,
    pricer: (usage) => {
      const current = get();
      return local ? undefined : makePricer(current.provider, current.model)(usage);
    },
  };
}

/** Before a run against a local server: which model will be asked for, and that its cost is unknown. */
async function noteLocalServer(ws: Workspace, out: Output): Promise<void> {
  const [{ chooseProvider }, { localServerNote }] = await load('providerChoice', 'localServer');
  const note = localServerNote(chooseProvider(ws.config), ws.config.config.model);
  if (note === undefined) return;
  if (ws.config.config.model === undefined) out.warn(note);
  else out.info(note);
}

/**
 * SIGINT/SIGTERM stop the run cleanly: a read-only tool call under way is stopped at once,
 * a write finishes; a second signal exits at once. Returns the signal to pass to the loop
 * and which signal arrived.
 */
export function interruptible(): { signal: AbortSignal; received: () => NodeJS.Signals | undefined; dispose: () => void } {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handler = (sig: NodeJS.Signals): void => {
    if (received) process.exit(sig === 'SIGINT' ? 130 : 143);
    received = sig;
    process.stderr.write(`\n${sig} received: stopping after the current step (again to quit at once)\n`);
    controller.abort(new Error(`${sig} received`));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/**
 * SIGINT/SIGTERM while waiting for the workspace lock gives the wait up: an interrupt, not a
 * lock failure, so exit 130/143 with a one-line note. Any other error is rethrown.
 */
export function exitIfInterruptedWhileWaiting(error: unknown, sig: NodeJS.Signals | undefined, out: Output): void {
  const code = exitCodeForSignal(sig);
  if (!(error instanceof LockError) || code === undefined) throw error;
  out.warn('interrupted while waiting for the workspace lock; nothing was changed');
  process.exitCode = code;
}

export function exitCodeForSignal(sig: NodeJS.Signals | undefined): number | undefined {
  if (sig === 'SIGINT') return 130;
  if (sig === 'SIGTERM') return 143;
  return undefined;
}

/** The effective model's name when no price is known for it (a cost budget cannot hold). */
async function unpricedModel(ws: Workspace): Promise<string | undefined> {
  const [{ chooseProvider }, { DEFAULT_MODELS }, { makePricer }] = await load('providerChoice', 'providerDefaults', 'pricing');
  const provider = chooseProvider(ws.config).provider;
  if (!provider) return undefined;
  const modelName = ws.config.config.model ?? DEFAULT_MODELS[provider];
  const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return makePricer(provider, modelName)(zero) === undefined ? modelName : undefined;
}

/** What every model-running command hands its operation. */
export interface AgentRunContext {
  out: Output;
  ws: Workspace;
  model: Awaited<ReturnType<typeof lazyModel>>;
  signal: AbortSignal;
  /** Under `--review` (or `review: true`; never with --dry-run): where the command's runs keep their proposals. */
  review: ReviewRequest | undefined;
  /** The settings every model command's operation takes, made once from the flags and the workspace; a command adds its own options and its progress listener. */
  settings: Omit<CommandRunSettings, 'listener'>;
  /**
   * For a command that writes pages in this run: under review, its runs work against an
   * overlay (as a dry run does) and keep it as a proposal; otherwise nothing. A command that
   * writes nothing (query without --save, lint without --fix) leaves it out, and no proposal is spoken of.
   */
  writesUnderReview: () => Partial<Pick<CommandRunSettings, 'dryRun' | 'review'>>;
}

/**
 * The shared body of `ingest`, `query` and `lint`: open the workspace with the flags,
 * make the model lazily, stop cleanly on SIGINT/SIGTERM, run the operation, print its
 * result, and map how it ended to an exit code (`failed` says 1 or 2; signals win).
 */
export async function runAgentCommand<R>(
  cmd: Command,
  flags: AgentFlags,
  operation: (ctx: AgentRunContext) => Promise<R>,
  finish: (report: R, out: Output, pricing: { localServer: boolean }) => { exitCode?: number },
): Promise<void> {
  const out = outputFor(cmd);
  const ws = await openWorkspace(cmd, await configFlagLayer(cmd));
  const model = await lazyModel(ws);
  await noteLocalServer(ws, out);
  const budget = budgetOf(ws);
  const unpriced = budget.maxCost === undefined ? undefined : await unpricedModel(ws);
  if (unpriced) out.warn(`--max-cost cannot be enforced: no price is known for ${unpriced}, so the run is not stopped by cost (use --max-tokens instead)`);
  const review = await reviewRequestFor(ws, Boolean(flags.dryRun));
  const interrupt = interruptible();
  try {
    const settings: Omit<CommandRunSettings, 'listener'> = {
      dryRun: Boolean(flags.dryRun),
      overwriteEdits: Boolean(flags.overwriteEdits),
      waitSeconds: flags.wait ?? 0,
      budget,
      model: model.get,
      price: model.pricer,
      signal: interrupt.signal,
      onNotice: (message) => out.warn(message),
    };
    const writesUnderReview = (): Partial<Pick<CommandRunSettings, 'dryRun' | 'review'>> => (review ? { dryRun: true, review: review.forCommand() } : {});
    const report = await operation({ out, ws, model, signal: interrupt.signal, review, settings, writesUnderReview });
    const reviewNotes = review ? await proposalsOutcome(report, review) : [];
    const { exitCode } = finish(report, out, { localServer: model.localServer });
    // Part of the result (stdout) beside the pages the report lists as created: they are only proposed.
    if (reviewNotes.length > 0 && !out.json) {
      if (out.quiet) out.notice(reviewNotes.join('\n'));
      else out.result(null, () => `\n${reviewNotes.join('\n')}`);
    }
    const signalCode = exitCodeForSignal(interrupt.received());
    if (signalCode) process.exitCode = signalCode;
    else if (exitCode) process.exitCode = exitCode;
  } catch (error) {
    exitIfInterruptedWhileWaiting(error, interrupt.received(), out);
  } finally {
    interrupt.dispose();
    if (interrupt.received()) leaveSoon();
  }
}

/** How long an interrupted command's output gets to drain before the process leaves. */
const LEAVE_GRACE_MS = 250;

/**
 * An interrupted run is over once its lock is released and its log entry written; work it
 * abandoned (a stalled embeddings request, a huge listing, a slow read) must not keep the
 * process alive. The timer does not hold the process either: it only fires when something else does.
 */
function leaveSoon(): void {
  setTimeout(() => process.exit(), LEAVE_GRACE_MS).unref();
}
