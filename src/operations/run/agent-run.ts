import { runAgent, type AgentOptions, type AgentRunResult, type SharedBudget } from '../../agent/loop.js';
import type { AgentListener } from '../../agent/events.js';
import { createTranscript, transcriptPath } from '../../agent/transcript.js';
import type { ChatModel, Usage } from '../../agent/types.js';
import { humanEditedPaths } from '../../state/human-edits.js';
import { isoDate } from '../../util/dates.js';
import { buildRunContext, buildSystemPrompt, type OperationKind } from '../prompt/prompt.js';
import { relevantKeys } from '../prompt/prompt-relevance.js';
import type { Session } from './session.js';
import { readLimitFor } from './session-tools.js';

export interface RunBudget {
  maxTurns: number;
  maxOutputTokens: number;
  maxTokens?: number;
  maxCost?: number;
}

export interface ModelRunOptions {
  model: ChatModel;
  operation: OperationKind;
  userMessage: string;
  /** Text the prompt's page list is ranked by (the question, or a source's title and first window). */
  relevantTo?: string;
  budget: RunBudget;
  price?: (usage: Usage) => number | undefined;
  listener?: AgentListener;
  signal?: AbortSignal;
  /** What this run shares with runs beside it: the command's own token and cost budget. */
  sharedBudget?: SharedBudget;
  /** Continue the conversation after the model ends a round (AgentOptions.followUp). */
  followUp?: AgentOptions['followUp'];
}

export interface ModelRun extends AgentRunResult {
  /** Workspace-relative transcript path; undefined in a dry run (nothing is written). */
  transcript: string | undefined;
  /** Writes the tools refused, in order: the path and the first reason given. */
  rejectedWrites: RejectedWrite[];
}

export interface RejectedWrite {
  path: string;
  reason: string;
  /** A later write to the same page in the run was accepted: the model sent it again, fixed. */
  rewritten?: boolean;
}

const WRITE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'append_to_file']);

/**
 * A listener that also notes every refused write (the call's path and the result's first
 * reason), and marks it rewritten once a later write to the same page is accepted: a run
 * whose refused writes were all sent again and accepted must not read as if pages were lost.
 */
function noteRejectedWrites(rejected: RejectedWrite[], inner: AgentListener | undefined): AgentListener {
  const paths = new Map<string, string>();
  return (event) => {
    if (event.type === 'tool_call' && WRITE_TOOLS.has(event.call.name)) {
      const target = event.call.arguments?.path;
      paths.set(event.call.id, typeof target === 'string' ? target.replace(/^\.\//, '') : '(no path)');
    } else if (event.type === 'tool_result' && paths.has(event.result.callId)) {
      const target = paths.get(event.result.callId) ?? '';
      if (event.result.isError) rejected.push({ path: target, reason: firstReason(event.result.content) });
      else for (const write of rejected) if (write.path === target) write.rewritten = true;
    }
    inner?.(event);
  };
}

/** The first reason of a refusal: its first bullet with the lines indented under it (quoted lines). */
function firstReason(content: string): string {
  const lines = content.split('\n');
  const start = lines.findIndex((line) => line.startsWith('- '));
  if (start < 0) return (lines.find((line) => line.trim()) ?? '').trim().slice(0, 500);
  const reason = [(lines[start] ?? '').slice(2)];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+\S/.test(line)) break;
    reason.push(line.trim());
  }
  return reason.join(' ').slice(0, 500);
}

/** One agent run inside a session: a cache-stable system prompt from schema.md, the run's context first in the user message, transcript in .wiki/runs/. */
export async function runModelInSession(session: Session, options: ModelRunOptions): Promise<ModelRun> {
  const ws = session.ws;
  const pages = session.contentPages();
  const system = buildSystemPrompt({ schema: ws.schema });
  const runContext = buildRunContext({
    schema: ws.schema,
    operation: options.operation,
    readLimit: readLimitFor(ws.config.config.contextTokens),
    today: isoDate(),
    pages,
    settings: ws.config.config,
    relevant: options.relevantTo === undefined ? [] : await relevantKeys(session, options.relevantTo, ws.config.config.promptPageLimit),
    humanEdited: await humanEditedPaths(ws.root, pages.map((page) => page.path)),
    user: session.user,
  });
  const transcriptFile = session.options.dryRun ? undefined : transcriptPath(ws.root, session.options.runId);
  const limits = ws.config.config.limits;
  const transcript = transcriptFile ? await createTranscript(transcriptFile, { maxEventBytes: limits.transcriptEventBytes }) : undefined;
  const rejectedWrites: RejectedWrite[] = [];
  try {
    const result = await runAgent({
      model: options.model,
      system,
      userMessage: `${runContext}\n\n---\n\n${options.userMessage}`,
      tools: session.tools,
      maxTurns: options.budget.maxTurns,
      maxOutputTokens: options.budget.maxOutputTokens,
      turnLimits: { toolCallsPerTurn: limits.toolCallsPerTurn, toolResultBytesPerTurn: limits.toolResultBytesPerTurn, searchesPerTurn: limits.searchesPerTurn },
      maxTokens: options.budget.maxTokens,
      maxCost: options.budget.maxCost,
      price: options.price,
      listener: noteRejectedWrites(rejectedWrites, options.listener),
      transcript,
      signal: options.signal,
      sharedBudget: options.sharedBudget,
      followUp: options.followUp,
      contextTokens: ws.config.config.contextTokens ?? options.model.contextWindow,
    });
    return { ...result, transcript: transcriptFile ? `.wiki/runs/${session.options.runId}.jsonl` : undefined, rejectedWrites };
  } finally {
    await transcript?.close();
  }
}
