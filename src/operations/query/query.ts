import type { CommandRunSettings } from '../run/command-settings.js';
import { newRunId } from '../../state/history.js';
import { UsageError } from '../../errors.js';
import { acquireLock } from '../../state/lock.js';
import { extractInlineLinks } from '../../wiki/links.js';
import { runModelInSession } from '../run/agent-run.js';
import { lockOptions } from '../ingest/ingest.js';
import { renderEvidencePack } from '../../retrieval/evidence-pack.js';
import { retrieveEvidence, type QueryRetrieval } from './query-evidence.js';
import { ensureSaved, modelSavedPage, type Filing } from './query-save.js';
import { historyStatus, noModelOutcome, summariseRun, type RunOutcome } from '../run/run-outcome.js';
import type { LaneWarning } from '../inspect/search.js';
import { Session } from '../run/session.js';
import { sweepAbandonedTempFiles } from '../run/abandoned-writes.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';

export interface QueryOptions extends CommandRunSettings {
  save: boolean;
}

/**
 * `answered`: the model was called with the evidence pack (or, when search failed, without
 * one). `nothing-in-wiki`: no page matched the question, so no model was called and the
 * answer says so (exit code 1).
 */
export type QueryState = 'answered' | 'nothing-in-wiki';

/** What retrieval gave the model before its first call. */
export interface QueryEvidence {
  /** The pages of the evidence pack: seeds (depth 0) first, then pages reached through links. */
  pages: Array<{ key: string; path: string; depth: number; via?: string }>;
  /** The links followed, e.g. `attention --refs--> transformer`. */
  chain: string[];
  /** Characters of the pack as the model read it. */
  chars: number;
  /** Why there is no pack, when the search could not run (the model then searched on its own). */
  searchFailed?: string;
}

export interface QueryReport extends RunOutcome {
  question: string;
  state: QueryState;
  evidence: QueryEvidence;
  answer: string;
  /** Keys cited with [[key]] in the answer that exist in the wiki. */
  cited: string[];
  /** Keys cited that do not exist (the answer keeps their text, unlinked, when saved). */
  uncited: string[];
  /** The page the answer was filed as; `created` false when an existing page was updated. */
  saved?: { path: string; by: 'model' | 'wiki'; created: boolean };
  /** With --save, why no page was written (the answer is still printed). */
  notSaved?: string;
  diff?: string;
  /** False when the answer cites no page of the wiki: the wiki had nothing on the question. */
  found: boolean;
  /** Search lanes the model's searches had to do without (e.g. the embeddings endpoint refusing). */
  warnings: LaneWarning[];
}

/** `wiki query`: answer from the wiki, citing pages; with --save, file the answer as a page. */
export async function queryWiki(ws: WorkspaceHandle, question: string, options: QueryOptions): Promise<QueryReport> {
  const trimmed = question.trim();
  if (!trimmed) throw new UsageError('the question is empty', 'e.g. `wiki query "what is attention?"`');
  const model = options.model();
  const mutating = options.save && !options.dryRun;
  const lock = mutating ? await acquireLock(ws.root, lockOptions('query', options)) : undefined;
  lock?.releaseOnExit();
  const started = Date.now();
  try {
    if (lock) await sweepAbandonedTempFiles(ws.root);
    const session = await Session.open(ws, {
      op: 'query',
      title: trimmed,
      runId: newRunId(),
      dryRun: options.dryRun,
      readOnly: !options.save,
      overwriteEdits: options.overwriteEdits === true,
      env: options.env,
      review: options.save ? options.review?.forRun() : undefined,
    });
    const retrieval = await retrieveEvidence(session, trimmed, ws.config.config.query);
    const evidence = evidenceOf(retrieval);
    if (retrieval.kind === 'no-hit') {
      await session.finish('completed');
      return nothingInWiki(trimmed, evidence, options, Date.now() - started, [...session.laneWarnings.values()]);
    }
    const run = await runModelInSession(session, {
      model,
      operation: options.save ? 'query-save' : 'query',
      userMessage: questionMessage(trimmed, retrieval, options.save),
      relevantTo: trimmed,
      budget: options.budget,
      price: options.price,
      listener: options.listener,
      signal: options.signal,
    });
    const answer = run.finalText.trim();
    const linked = [...new Set(extractInlineLinks(answer).map((l) => l.target))];
    // The page the model saved this answer as is not a citation of itself.
    const ownPage = options.save ? modelSavedPage(session) : undefined;
    const ownKey = ownPage === undefined ? undefined : session.pages.atPath(ownPage)?.key;
    const cited = linked.filter((key) => key !== ownKey && session.pages.has(key));
    const uncited = linked.filter((key) => key !== ownKey && !session.pages.has(key));
    let filing: Filing = {};
    if (options.save && run.status === 'done' && answer) filing = await ensureSaved(session, trimmed, answer, cited, uncited);
    else if (options.save) filing = { notSaved: run.status === 'done' ? 'the model gave no answer' : 'the run did not finish' };
    const changes = session.pageChanges();
    const findings = await session.revalidateTouched();
    const interrupted = run.status === 'interrupted';
    // A saving run that was interrupted is logged as such even when it wrote nothing yet.
    if (options.save && (changes.created.length > 0 || changes.updated.length > 0 || interrupted)) {
      await session.refreshIndex();
      const lines = [
        ...(changes.created.length ? [`created: ${changes.created.join(', ')}`] : []),
        ...(changes.updated.length ? [`updated: ${changes.updated.join(', ')}`] : []),
        ...(cited.length ? [`cites: ${cited.join(', ')}`] : []),
      ];
      const entry = await session.appendLog(interrupted ? 'query-interrupted' : 'query', trimmed, lines);
      if (run.status === 'done') {
        const notice = await session.autoCommit(entry.split('\n')[0] ?? entry);
        if (notice) options.onNotice?.(notice);
      }
    }
    await session.finish(historyStatus(run.status));
    // No answer came: the provider's own error is the result (its message, hint and exit
    // code, like any provider error), never a report that the wiki lacks the answer.
    if (run.status === 'provider_error' && run.error) {
      const kept = [...changes.created, ...changes.updated];
      if (kept.length > 0) options.onNotice?.(`pages written before the failure are kept: ${kept.join(', ')} (\`wiki undo\` restores them)`);
      throw run.error;
    }
    const report: QueryReport = {
      ...summariseRun(run, changes, findings, Date.now() - started, options.budget),
      question: trimmed,
      state: 'answered',
      evidence,
      answer,
      cited,
      uncited,
      found: cited.length > 0,
      warnings: [...session.laneWarnings.values()],
    };
    if (filing.saved) report.saved = { ...filing.saved, created: !changes.updated.includes(filing.saved.path) };
    if (filing.notSaved) report.notSaved = filing.notSaved;
    if (options.dryRun) report.diff = session.overlay?.unifiedDiff() ?? '';
    return report;
  } finally {
    await lock?.release();
  }
}

/** The first user message: the question, then the evidence pack (or why there is none). */
function questionMessage(question: string, retrieval: Exclude<QueryRetrieval, { kind: 'no-hit' }>, save: boolean): string {
  const evidence =
    retrieval.kind === 'pack'
      ? renderEvidencePack(retrieval.pack)
      : `The wiki's search failed before you were called (${retrieval.reason}); find the pages with your tools.`;
  // The same ending as schema.md's query workflow (steps 4 and 5): the tool files the evidence itself.
  const task = save
    ? 'Answer it from the wiki, citing every page you use as [[key]], then save the answer as a page in wiki/concepts/ ' +
      '(step 5 of the query workflow). End the page with the answer: the tool adds its "## Evidence" section ' +
      '(the pages the answer cites and the links among them), so do not write one.'
    : 'Answer it from the wiki, citing every page you use as [[key]] (step 4 of the query workflow).';
  return [`Question: ${question}`, '', task, '', evidence].join('\n');
}

function evidenceOf(retrieval: QueryRetrieval): QueryEvidence {
  if (retrieval.kind === 'search-failed') return { pages: [], chain: [], chars: 0, searchFailed: retrieval.reason };
  return {
    pages: retrieval.pack.pages.map(({ key, path: pagePath, depth, via }) => ({ key, path: pagePath, depth, ...(via ? { via } : {}) })),
    chain: retrieval.pack.chain,
    chars: retrieval.pack.chars,
  };
}

/** No page matched: the explicit answer that the wiki holds nothing on this; no model call. */
function nothingInWiki(
  question: string,
  evidence: QueryEvidence,
  options: QueryOptions,
  durationMs: number,
  warnings: LaneWarning[],
): QueryReport {
  const report: QueryReport = {
    ...noModelOutcome(durationMs, options.budget),
    question,
    state: 'nothing-in-wiki',
    evidence,
    answer: `Nothing in the wiki about this: no page matches “${question}”.`,
    cited: [],
    uncited: [],
    found: false,
    warnings,
  };
  if (options.save) report.notSaved = 'nothing in the wiki about this, so there is no answer to file';
  if (options.dryRun) report.diff = '';
  return report;
}
