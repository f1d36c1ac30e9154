import { replyTokens } from '../../agent/context-budget.js';
import type { ChatModel } from '../../agent/types.js';
import { UsageError } from '../../errors.js';
import type { FactReader } from '../../facts/reader.js';
import type { FactHit } from '../../facts/store-schema.js';
import { wordOverlap } from '../../facts/word-tokens.js';
import { openFactReader } from '../../store/open-facts.js';
import { openSearchIndex } from '../../store/open-index.js';
import { fuseRankings } from '../../search/fusion/rrf.js';
import { parsePage, sourcesOf } from '../../wiki/page.js';
import { readPage } from '../../wiki/page-read.js';
import { sourceFilePath } from '../../wiki/validate/page-rules.js';
import { refreshFacts } from '../inspect/facts.js';
import { surfacedSearch } from '../inspect/search.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';

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
 * `wiki query --facts`: the facts matching the question (BM25 over `.wiki/facts.db`, or the shared database with `store.kind: postgres`),
 * and only those, handed to the model, which must cite them by id. No supporting facts:
 * "no facts found" and no model call.
 */
export async function answerFromFacts(
  ws: WorkspaceHandle,
  question: string,
  model: () => ChatModel,
  options: { signal?: AbortSignal | undefined; user?: string | undefined } = {},
): Promise<FactsAnswer> {
  const { root, config } = ws;
  const { signal } = options;
  const trimmed = question.trim();
  if (!trimmed) throw new UsageError('the question is empty', 'e.g. `wiki query --facts "when did the bridge open?"`');
  await refreshFacts(root, config);
  const pageSources = await sourcesOfMatchingPages(ws, trimmed, options.user);
  const store = await openFactReader(root, config.config, config.config.sandbox.deny);
  try {
    const facts = await retrieveFacts(store, trimmed, pageSources, FACT_LIMIT);
    if (facts.length === 0) return { question: trimmed, answer: 'no facts found', facts, cited: [], unknown: [], modelCalled: false };
    const listing = facts.map((fact) => `[^${fact.id}] ${fact.text} (${fact.sources.join(', ')})`).join('\n');
    const chat = model();
    const response = await chat.complete({
      system: SYSTEM,
      messages: [{ role: 'user', content: `Facts:\n${listing}\n\nQuestion: ${trimmed}` }],
      tools: [],
      maxOutputTokens: replyTokens(config.config.maxOutputTokens, config.config.contextTokens ?? chat.contextWindow),
      signal,
    });
    const answer = response.text.trim();
    const ids = [...new Set([...answer.matchAll(/\[\^(f-[0-9a-f]+)\]/g)].map((m) => m[1] ?? ''))];
    const known = await Promise.all(ids.map(async (id) => ((await store.get(id)) === undefined ? undefined : id)));
    const cited = known.filter((id): id is string => id !== undefined);
    const unknown = ids.filter((id) => !cited.includes(id));
    return { question: trimmed, answer, facts, cited, unknown, modelCalled: true };
  } finally {
    await store.close();
  }
}

/** An answer passes when it cites at least one fact and no id it was not given. */
export function factsAnswerOk(answer: FactsAnswer): boolean {
  return !answer.modelCalled || (answer.cited.length > 0 && answer.unknown.length === 0);
}

/** How many pages the hybrid search lane draws sources from. */
const PAGE_LIMIT = 5;
/** The fusion constant of the search lanes' own RRF. */
const RRF_K = 60;

/**
 * Two rankings of facts, fused by reciprocal rank: FTS5 BM25 over every live fact, and the
 * facts of the raw sources of the pages the wiki's hybrid search finds for the question
 * (lexical, semantic and token lanes), ranked by the share of the question's words they
 * hold. A fact sharing no content word with the question is left out of the second, so a
 * question nothing supports still finds no facts.
 */
export async function retrieveFacts(store: FactReader, question: string, pageSources: readonly string[], limit: number): Promise<FactHit[]> {
  const bm25 = await store.search(question, limit);
  const fromPages = (await store.factsOfSources(pageSources))
    .map((fact) => ({ fact, overlap: wordOverlap(question, fact.text) }))
    .filter((scored) => scored.overlap > 0)
    .sort((a, b) => b.overlap - a.overlap || (a.fact.id < b.fact.id ? -1 : 1))
    .slice(0, limit)
    .map((scored) => scored.fact);
  const byId = new Map([...fromPages, ...bm25].map((fact) => [fact.id, fact]));
  const fused = fuseRankings(
    [
      { lane: 'lexical', weight: 1, ids: bm25.map((fact) => fact.id) },
      { lane: 'semantic', weight: 1, ids: fromPages.map((fact) => fact.id) },
    ],
    RRF_K,
  );
  return fused.slice(0, limit).flatMap((hit) => {
    const fact = byId.get(hit.id);
    return fact ? [{ ...fact, score: hit.score }] : [];
  });
}

/** The raw/ sources of the pages the hybrid search finds (only pages surfaced to `user`). */
async function sourcesOfMatchingPages(ws: WorkspaceHandle, question: string, user: string | undefined): Promise<string[]> {
  const index = await openSearchIndex(ws.root, ws.schema, ws.config.config);
  try {
    const found = await surfacedSearch(ws.root, ws.schema, index, question, { limit: PAGE_LIMIT }, user);
    const sources = new Set<string>();
    for (const result of found.results) {
      const text = readPage(ws.root, result.path);
      if (text === undefined) continue;
      for (const source of sourcesOf(parsePage(result.path, text, ws.schema.contract).frontmatter)) {
        const file = sourceFilePath(source);
        if (file?.startsWith('raw/')) sources.add(file);
      }
    }
    return [...sources];
  } finally {
    await index.close();
  }
}
