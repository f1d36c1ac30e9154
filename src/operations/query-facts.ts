import type { ChatModel } from '../agent/types.js';
import type { EffectiveConfig } from '../config/load.js';
import { UsageError } from '../errors.js';
import { factsDbFile } from '../facts/extract.js';
import { FactStore, type FactHit } from '../facts/store.js';
import { refreshFacts } from './facts.js';

export interface FactsAnswer {
  question: string;
  answer: string;
  /** The facts the model was given, best first. */
  facts: FactHit[];
  /** Fact ids the answer cites as [^fact-id] that exist in the store. */
  cited: string[];
  /** Cited ids that do not exist: the answer claims a source it was not given. */
  unknown: string[];
  modelCalled: boolean;
}

/** How many facts the model is given. */
const FACT_LIMIT = 20;

const SYSTEM = [
  'You answer questions using ONLY the numbered facts given to you, each extracted verbatim from a source.',
  'Every sentence of your answer must cite the facts it rests on as [^fact-id], with the ids exactly as given (e.g. [^f-0123456789ab]).',
  'Do not add anything the facts do not say. If the facts do not answer the question, say so in one sentence.',
].join('\n');

/**
 * `wiki query --facts`: the facts matching the question (FTS5 BM25 over `.wiki/facts.db`),
 * and only those, handed to the model, which must cite them by id. No supporting facts:
 * "no facts found" and no model call.
 */
export async function answerFromFacts(root: string, config: EffectiveConfig, question: string, model: () => ChatModel, signal?: AbortSignal): Promise<FactsAnswer> {
  const trimmed = question.trim();
  if (!trimmed) throw new UsageError('the question is empty', 'e.g. `wiki query --facts "when did the bridge open?"`');
  await refreshFacts(root, config);
  const store = await FactStore.open(factsDbFile(root), { readonly: true });
  try {
    const facts = store.search(trimmed, FACT_LIMIT);
    if (facts.length === 0) return { question: trimmed, answer: 'no facts found', facts, cited: [], unknown: [], modelCalled: false };
    const listing = facts.map((fact) => `[^${fact.id}] ${fact.text} (${fact.sources.join(', ')})`).join('\n');
    const response = await model().complete({
      system: SYSTEM,
      messages: [{ role: 'user', content: `Facts:\n${listing}\n\nQuestion: ${trimmed}` }],
      tools: [],
      maxOutputTokens: config.config.maxOutputTokens,
      ...(signal ? { signal } : {}),
    });
    const answer = response.text.trim();
    const ids = [...new Set([...answer.matchAll(/\[\^(f-[0-9a-f]+)\]/g)].map((m) => m[1] ?? ''))];
    const cited = ids.filter((id) => store.get(id) !== undefined);
    const unknown = ids.filter((id) => !cited.includes(id));
    return { question: trimmed, answer, facts, cited, unknown, modelCalled: true };
  } finally {
    store.close();
  }
}

/** An answer passes when it cites at least one fact and no id it was not given. */
export function factsAnswerOk(answer: FactsAnswer): boolean {
  return !answer.modelCalled || (answer.cited.length > 0 && answer.unknown.length === 0);
}
