import { ProviderError } from '../errors.js';
import type { Tool } from './tool.js';
import { mergeChanges, type ChangedFile } from './changes.js';
import { messageBudgetChars, replyTokens } from './context-budget.js';
import { messageChars, shortenRefusedCalls, stubWrittenContent, trimContext, trimOptions, type TrimMode } from './context-trim.js';
import type { AgentEvent, AgentListener, AgentRunStatus } from './events.js';
import { runToolCalls } from './tool-runner.js';
import { DEFAULT_TURN_LIMITS, type TurnLimits } from './turn-limits.js';
import type { TranscriptWriter } from './transcript.js';
import { addUsage, emptyUsage, type ChatModel, type ChatResponse, type Message, type Usage } from './types.js';

export const DEFAULT_MAX_TURNS = 40;

/** Sent after a reply was cut off at the output limit without asking for a tool. */
export const CONTINUE_MESSAGE =
  'Your previous reply was cut off at the output token limit. Continue exactly where it stopped, without repeating anything.';

export interface AgentOptions {
  model: ChatModel;
  system: string;
  userMessage: string;
  tools: readonly Tool[];
  /** Model calls allowed (default 40). */
  maxTurns?: number;
  /** Output tokens per model response. */
  maxOutputTokens: number;
  /** Total tokens for the run (input, output and cache, see `totalTokens`); unset = no cap. */
  maxTokens?: number;
  /** Estimated USD for the run; only enforced while `price` knows the cost. */
  maxCost?: number;
  /** USD estimate of one call's usage; `undefined` = price unknown (cost becomes unknown). */
  price?: (usage: Usage) => number | undefined;
  /** Progress display. Called synchronously; must not throw. */
  listener?: AgentListener;
  /** Receives every event; the caller opens and closes it. */
  transcript?: TranscriptWriter;
  /** Per-turn caps on tool calls and on the bytes of their results (default DEFAULT_TURN_LIMITS). */
  turnLimits?: TurnLimits;
  /** Abort: a write under way finishes, a read under way is stopped, a pending model request is cancelled, status `interrupted`. */
  signal?: AbortSignal;
  /** A budget this run shares with others running beside it (a command's total); checked like maxTokens/maxCost. */
  sharedBudget?: SharedBudget;
  /**
   * The model's context window in tokens: every request (estimated at 4 characters a token)
   * plus its reply stays within it; old results are trimmed to fit. Unset: no bound.
   */
  contextTokens?: number;
  /**
   * Asked when the model ends a round (it stops without asking for a tool): a message to
   * continue the same conversation with, or undefined to end the run. A run's rounds share
   * its turns and budget; `finalText` then joins every round's last reply.
   */
  followUp?: (round: { turns: number; changed: readonly ChangedFile[]; text: string }) => Promise<string | undefined>;
}


/** A budget several runs draw on at once, e.g. `wiki ingest --jobs 4 --max-tokens N`. */
export interface SharedBudget {
  /** Count one model call's usage and estimated cost (`undefined`: price unknown). */
  spend(usage: Usage, cost: number | undefined): void;
  /** How the budget is spent, or undefined while some is left. */
  exhausted(): 'budget_tokens' | 'budget_cost' | undefined;
}

export interface AgentRunResult {
  status: AgentRunStatus;
  /** Text of the last reply (joined with the pieces before it when it was continued after a cut-off). */
  finalText: string;
  /** Model calls that returned a response. */
  turns: number;
  usage: Usage;
  /** Estimated USD; `undefined` when no price function was given or a call's price was unknown. */
  cost: number | undefined;
  toolCalls: number;
  changed: ChangedFile[];
  /** For `provider_error`: the error as thrown (a ProviderError unless the provider has a bug). */
  error?: Error;
  /** The conversation as last sent (old tool results trimmed), plus the final reply. */
  messages: Message[];
  /** With followUp: each round's last reply, in order (the last is the run's own last reply). */
  rounds: string[];
}

/** Every token the provider billed for the run: input, output, cache reads and cache writes. */
export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

type ModelOutcome = { ok: true; response: ChatResponse } | { ok: false; status: AgentRunStatus; error?: Error };

/**
 * Provider-neutral agent loop: call the model, run the tools it asks for, feed the results
 * back, until it asks for nothing more or a limit is reached. Never throws for model or
 * tool failures; the status and `error` say what happened.
 */
export async function runAgent(options: AgentOptions): Promise<AgentRunResult> {
  const { model, signal } = options;
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const turnLimits = options.turnLimits ?? DEFAULT_TURN_LIMITS;
  const toolsByName = new Map(options.tools.map((tool) => [tool.definition.name, tool]));
  const definitions = options.tools.map((tool) => tool.definition);
  const preserved = new Set(options.tools.filter((tool) => tool.mutates).map((tool) => tool.definition.name));
  const maxOutputTokens = replyTokens(options.maxOutputTokens, options.contextTokens);
  const budgetChars = options.contextTokens === undefined ? undefined : messageBudgetChars(options.contextTokens, maxOutputTokens, options.system, definitions);

  let messages: Message[] = [{ role: 'user', content: options.userMessage }];
  let usage = emptyUsage();
  let cost: number | undefined = options.price === undefined ? undefined : 0;
  let turns = 0;
  let toolCalls = 0;
  let changed: ChangedFile[] = [];
  let finalText = '';
  let carriedText = '';
  /** The last replies of the rounds before this one (followUp). */
  const rounds: string[] = [];
  let status: AgentRunStatus | undefined;
  let error: Error | undefined;

  // A function, not an inline check: the signal changes while the loop awaits.
  const aborted = (): boolean => signal?.aborted === true;

  const emit = (event: AgentEvent): void => {
    options.listener?.(event);
    options.transcript?.write(event);
  };

  const trim = (mode: TrimMode, turn: number): number => {
    const trimmed = trimContext(messages, trimOptions(mode, preserved, budgetChars));
    messages = trimmed.messages;
    if (trimmed.removedChars > 0) emit({ type: 'trimmed', turn, removedChars: trimmed.removedChars, mode });
    return trimmed.removedChars;
  };

  const budgetStatus = (): AgentRunStatus | undefined => {
    if (options.maxTokens !== undefined && totalTokens(usage) >= options.maxTokens) return 'budget_tokens';
    if (options.maxCost !== undefined && cost !== undefined && cost >= options.maxCost) return 'budget_cost';
    return options.sharedBudget?.exhausted();
  };

  const callModel = async (turn: number): Promise<ModelOutcome> => {
    let retriedOverflow = false;
    for (;;) {
      try {
        const request = { system: options.system, messages, tools: definitions, maxOutputTokens };
        return { ok: true, response: await model.complete(signal === undefined ? request : { ...request, signal }) };
      } catch (thrown) {
        if (aborted() || (thrown instanceof ProviderError && thrown.kind === 'aborted')) {
          return { ok: false, status: 'interrupted' };
        }
        if (thrown instanceof ProviderError && thrown.kind === 'context-overflow') {
          // A retry only makes sense if the hard trim actually made the request smaller.
          const retrying = !retriedOverflow && trim('hard', turn) > 0;
          emit({ type: 'context_overflow', turn, retrying, message: thrown.message });
          if (retrying) {
            retriedOverflow = true;
            continue;
          }
          return { ok: false, status: 'provider_error', error: overflowError(thrown) };
        }
        return { ok: false, status: 'provider_error', error: thrown instanceof Error ? thrown : new Error(String(thrown)) };
      }
    }
  };

  emit({
    type: 'run_start',
    provider: model.provider,
    model: model.model,
    maxTurns,
    tools: definitions.map((definition) => definition.name),
    system: options.system,
    userMessage: options.userMessage,
  });

  while (status === undefined) {
    if (aborted()) {
      status = 'interrupted';
      break;
    }
    if (turns >= maxTurns) {
      status = 'max_turns';
      break;
    }
    // Runs beside this one may have spent the shared budget while this one waited.
    const sharedSpent = options.sharedBudget?.exhausted();
    if (sharedSpent !== undefined) {
      status = sharedSpent;
      break;
    }
    const turn = turns + 1;
    emit({ type: 'turn_start', turn, maxTurns });
    trim('normal', turn);
    // Still past the budget after a normal trim: only the last turn stays whole.
    if (budgetChars !== undefined && messageChars(messages) > budgetChars) trim('hard', turn);

    const outcome = await callModel(turn);
    if (!outcome.ok) {
      status = outcome.status;
      error = outcome.error;
      break;
    }
    const response = outcome.response;
    turns = turn;
    usage = addUsage(usage, response.usage);
    const callCost = options.price?.(response.usage);
    cost = addCost(cost, callCost);
    options.sharedBudget?.spend(response.usage, callCost);
    emit({
      type: 'model_response',
      turn,
      text: response.text,
      toolCalls: response.toolCalls,
      stopReason: response.stopReason,
      usage: response.usage,
    });
    emit({ type: 'usage', total: usage, cost });
    messages.push({ role: 'assistant', text: response.text, toolCalls: response.toolCalls });
    finalText = carriedText + response.text;
    carriedText = '';

    // Tool calls decide, not the stop reason: local servers report "stop" with tool calls.
    if (response.toolCalls.length > 0) {
      const batch = await runToolCalls(response.toolCalls, toolsByName, {
        signal,
        limits: turnLimits,
        onCall: (call) => emit({ type: 'tool_call', turn, call }),
        onResult: (result, durationMs, callChanges) =>
          emit({ type: 'tool_result', turn, result, durationMs, changed: callChanges }),
      });
      toolCalls += response.toolCalls.length;
      changed = mergeChanges(changed, batch.changed);
      // A refused call too large for any context (a 100 MB write) must not be re-sent on every later turn.
      const asked = shortenRefusedCalls(messages.at(-1) as Message, batch.results, turnLimits.toolResultBytesPerTurn);
      // Accepted page text lives in the workspace from now on, not in every later request.
      messages[messages.length - 1] = stubWrittenContent(asked, batch.results, preserved);
      messages.push({ role: 'tool', results: batch.results });
      status = batch.interrupted || aborted() ? 'interrupted' : budgetStatus();
      continue;
    }
    switch (response.stopReason) {
      case 'refusal':
        status = 'refused';
        break;
      case 'pause':
        // The server paused a long turn: sending the conversation as is resumes it.
        carriedText = finalText;
        status = budgetStatus();
        break;
      case 'max_tokens':
        carriedText = finalText;
        messages.push({ role: 'user', content: CONTINUE_MESSAGE });
        status = budgetStatus();
        break;
      default: {
        const next = options.followUp && budgetStatus() === undefined && !aborted() ? await options.followUp({ turns, changed, text: finalText }) : undefined;
        if (next === undefined) {
          status = 'done';
          break;
        }
        rounds.push(finalText);
        messages.push({ role: 'user', content: next });
        emit({ type: 'follow_up', turn, message: next });
      }
    }
  }

  const roundTexts = [...rounds, finalText];
  if (rounds.length > 0) finalText = roundTexts.join('\n\n');
  emit({ type: 'run_end', status, turns, usage, cost, error: error?.message });
  return { status, finalText, turns, usage, cost, toolCalls, changed, error, messages, rounds: roundTexts };
}

/** A running cost plus one more: unknown as soon as any part is unknown. */
export function addCost(total: number | undefined, call: number | undefined): number | undefined {
  return total === undefined || call === undefined ? undefined : total + call;
}

function overflowError(cause: ProviderError): ProviderError {
  const error = new ProviderError(
    'context-overflow',
    `The conversation no longer fits the model's context window, even after trimming old tool results (${cause.message}).`,
    'Use a model with a larger context window, or give the run less to read at once.',
    cause.exitCode,
  );
  error.cause = cause;
  return error;
}
