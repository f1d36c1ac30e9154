import type { AgentListener } from '../../agent/events.js';
import { newRunId } from '../../state/history.js';
import type { ChatModel, Usage } from '../../agent/types.js';
import { UsageError } from '../../errors.js';
import { acquireLock } from '../../state/lock.js';
import { isoDate } from '../../util/dates.js';
import { extractInlineLinks } from '../../wiki/links.js';
import { serialisePage, sourcesOf } from '../../wiki/page.js';
import { runModelInSession, type RunBudget } from '../run/agent-run.js';
import { lockOptions } from '../ingest/ingest.js';
import { chainAmong, MAX_CHAIN_LINES, renderEvidencePack, type EvidenceLink } from '../../retrieval/evidence-pack.js';
import { retrieveEvidence, type QueryRetrieval } from './query-evidence.js';
import { answerKeys } from './query-key.js';
import { historyStatus, noModelOutcome, summariseRun, type RunOutcome } from '../run/run-outcome.js';
import type { LaneWarning } from '../inspect/search.js';
import { Session, sweepAbandonedTempFiles } from '../run/session.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import type { ReviewRequest } from '../review/propose.js';

export interface QueryOptions {
  save: boolean;
  dryRun: boolean;
  /** The model may drop what a human changed on a page (`--overwrite-edits`). */
  overwriteEdits?: boolean;
  waitSeconds: number;
  budget: RunBudget;
  model: () => ChatModel;
  price?: (usage: Usage) => number | undefined;
  listener?: AgentListener;
  signal?: AbortSignal;
  onNotice?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
  /** `--review` with `--save` (and `dryRun`): the answer's page waits in a proposal. */
  review?: ReviewRequest | undefined;
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

type Filing = { saved?: Omit<NonNullable<QueryReport['saved']>, 'created'>; notSaved?: string };

/**
 * The answer must end up as a page: keep the model's page when it wrote one under
 * wiki/concepts/, otherwise write it here with refs to the cited pages and their sources.
 */
async function ensureSaved(session: Session, question: string, answer: string, cited: string[], uncited: string[]): Promise<Filing> {
  const conceptFolder = conceptFolderOf(session);
  const evidence = citedEvidence(session, cited);
  const byModel = modelSavedPage(session);
  if (byModel) {
    await fileEvidenceOnModelPage(session, byModel, evidence);
    return { saved: { path: byModel, by: 'model' } };
  }
  const key = freeKey(session, answerKeys(question));
  const relPath = `${conceptFolder}/${key}.md`;
  const sources = [...new Set(cited.flatMap((k) => sourcesOf(session.pages.get(k)?.frontmatter ?? {})))].sort();
  const today = isoDate();
  const body = withEvidence(unlinkMissing(answer, uncited), evidence);
  const content = serialisePage(
    {
      title: question.replace(/\s+/g, ' ').slice(0, 120),
      summary: firstSentence(body),
      type: 'concept',
      tags: ['query'],
      refs: cited,
      sources,
      created: today,
      updated: today,
    },
    `\n${body}\n`,
  );
  if (sources.length === 0) {
    return { notSaved: 'the answer cites no wiki page with sources, and a saved page must record the raw files it draws on' };
  }
  const verdict = await session.writeCheck.validate(relPath, content, undefined);
  if (!verdict.ok) return { notSaved: `it would not be a valid page: ${verdict.errors.join('; ')}` };
  await session.writeFile(relPath, content);
  return { saved: { path: relPath, by: 'wiki' } };
}

function conceptFolderOf(session: Session): string {
  return session.ws.schema.contract.types.concept?.folder ?? 'wiki/concepts';
}

/** The page the model wrote under the concepts folder in this run: the answer it saved. */
function modelSavedPage(session: Session): string | undefined {
  const conceptFolder = conceptFolderOf(session);
  return [...session.changed.keys()].find((p) => p.startsWith(`${conceptFolder}/`) && p.endsWith('.md'));
}

/** What the saved page's Evidence section lists: the pages the answer cites, and the links among them. */
interface CitedEvidence {
  pages: string[];
  chain: string[];
}

function citedEvidence(session: Session, cited: readonly string[]): CitedEvidence {
  const linksOf = (key: string): readonly EvidenceLink[] => session.pages.get(key)?.links ?? [];
  return { pages: [...cited], chain: chainAmong(cited, linksOf, Number.POSITIVE_INFINITY) };
}

/**
 * The page the model saved gets the evidence too, unless it already has an Evidence
 * section; an addition the page checks refuse is left out (the model's page stands).
 */
async function fileEvidenceOnModelPage(session: Session, relPath: string, evidence: CitedEvidence): Promise<void> {
  const text = await session.fs.readText(session.abs(relPath));
  if (/^## Evidence\s*$/m.test(text)) return;
  const content = `${withEvidence(text.trimEnd(), evidence)}\n`;
  if (content === `${text.trimEnd()}\n`) return;
  const verdict = await session.writeCheck.validate(relPath, content, text);
  if (verdict.ok) await session.writeFile(relPath, content);
}

/** The answer, then the pages it cites and the links among them as plain lines (no new links to validate). */
function withEvidence(body: string, evidence: CitedEvidence): string {
  if (evidence.chain.length === 0 && evidence.pages.length === 0) return body;
  const lines = ['', '## Evidence', ''];
  if (evidence.pages.length > 0) lines.push(`Pages cited: ${evidence.pages.map((key) => `\`${key}\``).join(', ')}`, '');
  lines.push(...evidence.chain.slice(0, MAX_CHAIN_LINES).map((line) => `- \`${line}\``));
  // A played run read ten lines as all there was: say how many more links join the cited pages.
  const more = evidence.chain.length - MAX_CHAIN_LINES;
  if (more > 0) lines.push(`- … and ${more} more link(s) among the cited pages`);
  return `${body}\n${lines.join('\n')}`.trimEnd();
}

/** The first of `candidates` no page has, else the first numbered (`-2`, `-3`…). */
function freeKey(session: Session, candidates: readonly string[]): string {
  const keys = candidates.length > 0 ? candidates : ['answer'];
  const free = keys.find((key) => !session.pages.has(key));
  if (free !== undefined) return free;
  const base = keys[0] ?? 'answer';
  for (let n = 2; ; n++) if (!session.pages.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** `[[missing|label]]` → `label`, `[[missing]]` → `missing`: no broken link is saved. */
export function unlinkMissing(text: string, missing: string[]): string {
  if (missing.length === 0) return text;
  const gone = new Set(missing);
  return text.replace(/\[\[([^\[\]\n]+?)\]\]/g, (whole, inner: string) => {
    const [target = '', label] = inner.split('|');
    const key = (target.split('#')[0] ?? '').trim();
    if (!gone.has(key)) return whole;
    return (label ?? target).trim();
  });
}

function firstSentence(text: string): string {
  const plain = text
    .replace(/\[\[([^\]|]+)\|([^\]]+)\]\]/g, '$2')
    .replace(/\[\[([^\]]+)\]\]/g, '$1')
    .replace(/[#*_`>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const match = /^(.{20,200}?[.!?])(\s|$)/.exec(plain);
  const sentence = match?.[1] ?? plain.slice(0, 160);
  return sentence || 'Saved answer.';
}
