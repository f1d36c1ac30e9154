import { runAgent, type AgentRunResult } from '../agent/loop.js';
import type { AgentListener } from '../agent/events.js';
import { createTranscript, transcriptPath } from '../agent/transcript.js';
import type { ChatModel, Usage } from '../agent/types.js';
import { isoDate } from '../util/dates.js';
import { buildRunContext, buildSystemPrompt, type OperationKind } from './prompt.js';
import type { Session } from './session.js';

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
  budget: RunBudget;
  price?: (usage: Usage) => number | undefined;
  listener?: AgentListener;
  signal?: AbortSignal;
}

export interface ModelRun extends AgentRunResult {
  /** Workspace-relative transcript path; undefined in a dry run (nothing is written). */
  transcript: string | undefined;
}

/** One agent run inside a session: a cache-stable system prompt from schema.md, the run's context first in the user message, transcript in .wiki/runs/. */
export async function runModelInSession(session: Session, options: ModelRunOptions): Promise<ModelRun> {
  const ws = session.ws;
  const system = buildSystemPrompt({ schema: ws.schema, operation: options.operation });
  const runContext = buildRunContext({
    schema: ws.schema,
    today: isoDate(),
    pages: session.contentPages(),
    pageLimit: ws.config.config.promptPageLimit,
  });
  const transcriptFile = session.options.dryRun ? undefined : transcriptPath(ws.root, session.options.runId);
  const transcript = transcriptFile ? await createTranscript(transcriptFile) : undefined;
  try {
    const result = await runAgent({
      model: options.model,
      system,
      userMessage: `${runContext}\n\n---\n\n${options.userMessage}`,
      tools: session.tools,
      maxTurns: options.budget.maxTurns,
      maxOutputTokens: options.budget.maxOutputTokens,
      ...(options.budget.maxTokens !== undefined ? { maxTokens: options.budget.maxTokens } : {}),
      ...(options.budget.maxCost !== undefined ? { maxCost: options.budget.maxCost } : {}),
      ...(options.price ? { price: options.price } : {}),
      ...(options.listener ? { listener: options.listener } : {}),
      ...(transcript ? { transcript } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { ...result, transcript: transcriptFile ? `.wiki/runs/${session.options.runId}.jsonl` : undefined };
  } finally {
    await transcript?.close();
  }
}
