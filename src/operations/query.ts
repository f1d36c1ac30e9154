import type { AgentListener } from '../agent/events.js';
import { newRunId } from '../agent/transcript.js';
import type { ChatModel, Usage } from '../agent/types.js';
import { UsageError } from '../errors.js';
import { acquireLock } from '../state/lock.js';
import { isoDate } from '../util/dates.js';
import { slugify } from '../wiki/keys.js';
import { extractInlineLinks } from '../wiki/links.js';
import { serialisePage, sourcesOf } from '../wiki/page.js';
import { runModelInSession, type RunBudget } from './agent-run.js';
import { lockOptions } from './ingest.js';
import { historyStatus, summariseRun, type RunOutcome } from './run-outcome.js';
import type { LaneWarning } from './search.js';
import { Session, sweepAbandonedTempFiles, type WorkspaceHandle } from './session.js';

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
}

export interface QueryReport extends RunOutcome {
  question: string;
  answer: string;
  /** Keys cited with [[key]] in the answer that exist in the wiki. */
  cited: string[];
  /** Keys cited that do not exist (the answer keeps their text, unlinked, when saved). */
  uncited: string[];
  saved?: { path: string; by: 'model' | 'wiki' };
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
      runId: newRunId('query'),
      dryRun: options.dryRun,
      readOnly: !options.save,
      overwriteEdits: options.overwriteEdits === true,
      env: options.env,
    });
    const userMessage = options.save
      ? `Question: ${trimmed}\n\nAnswer it from the wiki, then save the answer as a page in wiki/concepts/ (step 5 of the query workflow).`
      : `Question: ${trimmed}`;
    const run = await runModelInSession(session, {
      model,
      operation: options.save ? 'query-save' : 'query',
      userMessage,
      budget: options.budget,
      price: options.price,
      listener: options.listener,
      signal: options.signal,
    });
    const answer = run.finalText.trim();
    const linked = [...new Set(extractInlineLinks(answer).map((l) => l.target))];
    const cited = linked.filter((key) => session.pages.has(key));
    const uncited = linked.filter((key) => !session.pages.has(key));
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
    const report: QueryReport = {
      ...summariseRun(run, changes, findings, Date.now() - started, options.budget),
      question: trimmed,
      answer,
      cited,
      uncited,
      found: cited.length > 0,
      warnings: [...session.laneWarnings.values()],
    };
    if (filing.saved) report.saved = filing.saved;
    if (filing.notSaved) report.notSaved = filing.notSaved;
    if (options.dryRun) report.diff = session.overlay?.unifiedDiff() ?? '';
    return report;
  } finally {
    await lock?.release();
  }
}

type Filing = { saved?: NonNullable<QueryReport['saved']>; notSaved?: string };

/**
 * The answer must end up as a page: keep the model's page when it wrote one under
 * wiki/concepts/, otherwise write it here with refs to the cited pages and their sources.
 */
async function ensureSaved(
  session: Session,
  question: string,
  answer: string,
  cited: string[],
  uncited: string[],
): Promise<Filing> {
  const conceptFolder = session.ws.schema.contract.types.concept?.folder ?? 'wiki/concepts';
  const byModel = [...session.changed.keys()].find((p) => p.startsWith(`${conceptFolder}/`) && p.endsWith('.md'));
  if (byModel) return { saved: { path: byModel, by: 'model' } };
  const key = freeKey(session, slugify(question) || 'answer');
  const relPath = `${conceptFolder}/${key}.md`;
  const sources = [...new Set(cited.flatMap((k) => sourcesOf(session.pages.get(k)?.frontmatter ?? {})))].sort();
  const today = isoDate();
  const body = unlinkMissing(answer, uncited);
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

function freeKey(session: Session, base: string): string {
  if (!session.pages.has(base)) return base;
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
