import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { AgentListener } from '../agent/events.js';
import { newRunId } from '../agent/transcript.js';
import type { ChatModel, Usage } from '../agent/types.js';
import { UsageError, WikiError } from '../errors.js';
import { fetchUrlToRaw } from '../sources/fetch-url.js';
import { acquireLock, type Lock } from '../state/lock.js';
import {
  classifySource,
  hashFile,
  loadManifest,
  markStale,
  pagesToMarkStale,
  recordIngest,
  saveManifest,
  type Manifest,
} from '../state/manifest.js';
import { isoDate } from '../util/dates.js';
import { sourcesOf, stringField } from '../wiki/page.js';
import type { Finding } from '../wiki/validate/finding.js';
import type { RunBudget } from './agent-run.js';
import { runModelInSession } from './agent-run.js';
import { checkReadable, copyIntoRaw, planInputs, type ResolvedSource } from './ingest-inputs.js';
import type { ExtractionReport } from '../facts/extract.js';
import { sqliteProblem } from '../facts/sqlite.js';
import { refreshFacts } from './facts.js';
import { Session, sweepAbandonedTempFiles, type WorkspaceHandle } from './session.js';
import { citedFromFolder, firstSourceWindow, handleDeletedSources, markStaleInOverlay } from './ingest-steps.js';
import { historyStatus, summariseRun, type RunOutcome } from './run-outcome.js';
import { sourceRelevanceText } from './prompt-relevance.js';

export interface IngestOptions {
  cwd: string;
  force: boolean;
  dryRun: boolean;
  /** The model may drop what a human changed on a page (`--overwrite-edits`). */
  overwriteEdits?: boolean;
  waitSeconds: number;
  budget: RunBudget;
  /** Created lazily: a run where every source is up to date needs no model or key. */
  model: () => ChatModel;
  price?: (usage: Usage) => number | undefined;
  listenerFor?: (source: string) => AgentListener | undefined;
  signal?: AbortSignal;
  onNotice?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface SourceOutcome extends RunOutcome {
  source: string;
  state: 'new' | 'changed' | 'forced';
  copiedFrom?: string;
  url?: string;
  warnings: string[];
  staleMarked: string[];
}

export interface IngestReport {
  ingested: SourceOutcome[];
  upToDate: string[];
  deletedSources: Array<{ source: string; staleMarked: string[] }>;
  /** Inputs that could not be read (binary, empty, a link out of the workspace…): reported, not ingested. */
  skipped: Array<{ source: string; reason: string }>;
  /** Unified diff of what would change (dry run only). */
  diff?: string;
  /** True when every run finished normally. */
  ok: boolean;
  interrupted: boolean;
  /**
   * New or changed sources not attempted because the command stopped early (interrupted,
   * the run's token or cost budget spent, the provider failing); the next run picks them up.
   */
  pending: string[];
  /** What fact extraction did over raw/ (absent in a dry run). */
  facts?: ExtractionReport;
  /** Why facts were not extracted: SQLite could not be loaded (and how to fix it). */
  factsUnavailable?: string;
}

/** Outcomes after which the remaining sources are left for the next run. */
const STOPS_THE_COMMAND: ReadonlySet<SourceOutcome['status']> = new Set(['interrupted', 'budget_tokens', 'budget_cost', 'provider_error']);

/**
 * `wiki ingest`: one agent run per new or changed source, each followed by the
 * deterministic after-steps (re-validate, index, log, manifest, stale marks).
 */
export async function ingestSources(ws: WorkspaceHandle, args: string[], options: IngestOptions): Promise<IngestReport> {
  const plan = await planInputs(ws.root, args, options.cwd);
  if (options.dryRun && plan.urls.length > 0) {
    throw new UsageError('--dry-run cannot fetch URLs', 'fetch first with `wiki ingest URL`, or drop --dry-run');
  }
  const warnings = new Map<string, string[]>();
  // One bad input is reported and skipped; the rest of the batch goes on and the command exits 1.
  const skipped: IngestReport['skipped'] = [];
  const readable: ResolvedSource[] = [];
  for (const source of plan.sources) {
    try {
      warnings.set(source.rawPath, await checkReadable(ws.root, source));
      readable.push(source);
    } catch (error) {
      if (!(error instanceof WikiError) || error.exitCode !== 2) throw error;
      // Nothing usable at all is an input error of the command itself: exit 2, nothing written.
      if (readable.length === 0 && plan.urls.length === 0 && skipped.length === plan.sources.length - 1) throw error;
      skipped.push({ source: source.copiedFrom ?? source.rawPath, reason: error.message });
    }
  }

  const lock = options.dryRun ? undefined : await acquireLock(ws.root, lockOptions('ingest', options));
  lock?.releaseOnExit();
  try {
    if (lock) await sweepAbandonedTempFiles(ws.root);
    const sources: ResolvedSource[] = readable;
    for (const url of plan.urls) {
      const fetched = await fetchUrlToRaw(url, ws.root);
      for (const w of fetched.warnings) options.onNotice?.(`${url}: ${w}`);
      sources.push({ rawPath: fetched.rawPath, url });
      warnings.set(fetched.rawPath, fetched.warnings);
    }
    if (!options.dryRun) await copyIntoRaw(ws.root, sources);

    let manifest = await loadManifest(ws.root);
    const report: IngestReport = { ingested: [], upToDate: [], deletedSources: [], skipped, ok: skipped.length === 0, interrupted: false, pending: [] };
    const todo: Array<{ source: ResolvedSource; sha256: string; state: SourceOutcome['state'] }> = [];
    for (const source of sources) {
      const file = source.copiedFrom ?? path.join(ws.root, source.rawPath);
      const sha256 = await hashFile(file);
      const state = classifySource(manifest, source.rawPath, sha256);
      if (state === 'unchanged' && !options.force) report.upToDate.push(source.rawPath);
      else todo.push({ source, sha256, state: state === 'unchanged' ? 'forced' : state });
    }

    if (!options.dryRun) {
      const handled = await handleDeletedSources(ws, manifest, options);
      manifest = handled.manifest;
      report.deletedSources.push(...handled.deleted);
    }
    // Deterministic, no model: every source's sentences are facts before any page is written.
    // A machine where SQLite cannot load still ingests: the pages need no facts; the report says what was left out.
    if (!options.dryRun) {
      const unavailable = await sqliteProblem();
      if (unavailable) {
        report.factsUnavailable = unavailable;
        options.onNotice?.(`facts not extracted: ${unavailable}`);
      } else report.facts = await refreshFacts(ws.root, ws.config);
    }

    let diffSession: Session | undefined;
    // --max-tokens and --max-cost bound the whole command: each source gets what is left.
    const spent: { tokens: number; cost: number | undefined } = { tokens: 0, cost: 0 };
    for (const [i, item] of todo.entries()) {
      const budget = remainingBudget(options.budget, spent);
      if (options.signal?.aborted || !budget) {
        if (options.signal?.aborted) report.interrupted = true;
        report.ok = false;
        report.pending = todo.slice(i).map((t) => t.source.rawPath);
        break;
      }
      const outcome = await ingestOne(ws, item, manifest, { ...options, budget }, warnings.get(item.source.rawPath) ?? []);
      report.ingested.push(outcome.outcome);
      manifest = outcome.manifest;
      diffSession = outcome.session;
      spent.tokens += outcome.outcome.tokens;
      spent.cost = spent.cost === undefined || outcome.outcome.cost === undefined ? undefined : spent.cost + outcome.outcome.cost;
      if (outcome.outcome.status !== 'done') report.ok = false;
      if (outcome.outcome.status === 'interrupted') report.interrupted = true;
      if (options.dryRun) break; // one overlay per run: later sources would not see earlier ones
      if (STOPS_THE_COMMAND.has(outcome.outcome.status)) {
        report.pending = todo.slice(i + 1).map((t) => t.source.rawPath);
        break;
      }
    }
    if (options.dryRun) {
      report.diff = diffSession?.overlay?.unifiedDiff() ?? '';
      if (todo.length > 1) options.onNotice?.(`dry run: showed the first of ${todo.length} sources to ingest`);
    }
    return report;
  } finally {
    await lock?.release();
  }
}

/** The budget left for the next source, or undefined when the command's budget is spent. */
function remainingBudget(budget: RunBudget, spent: { tokens: number; cost: number | undefined }): RunBudget | undefined {
  const left: RunBudget = { ...budget };
  if (budget.maxTokens !== undefined) {
    left.maxTokens = budget.maxTokens - spent.tokens;
    if (left.maxTokens <= 0) return undefined;
  }
  if (budget.maxCost !== undefined && spent.cost !== undefined) {
    left.maxCost = budget.maxCost - spent.cost;
    if (left.maxCost <= 0) return undefined;
  }
  return left;
}

async function ingestOne(
  ws: WorkspaceHandle,
  item: { source: ResolvedSource; sha256: string; state: SourceOutcome['state'] },
  manifest: Manifest,
  options: IngestOptions,
  warnings: string[],
): Promise<{ outcome: SourceOutcome; manifest: Manifest; session: Session }> {
  const { source } = item;
  const started = Date.now();
  const model = options.model();
  const runId = newRunId('ingest');
  const session = await Session.open(ws, {
    op: 'ingest',
    title: source.rawPath,
    runId,
    dryRun: options.dryRun,
    readOnly: false,
    overwriteEdits: options.overwriteEdits === true,
    env: options.env,
  });
  const readPath = source.rawPath;
  const firstWindow = await firstSourceWindow(session, readPath, source.copiedFrom);
  const userMessage = [
    `Ingest the source \`${readPath}\`${source.url ? ` (fetched from ${source.url})` : ''}${item.state === 'changed' ? ' — it has CHANGED since it was last ingested: update the pages that draw on it' : ''}.`,
    '',
    firstWindow,
  ].join('\n');
  const listener = options.listenerFor?.(source.rawPath);
  const run = await runModelInSession(session, {
    model,
    operation: 'ingest',
    userMessage,
    relevantTo: sourceRelevanceText(readPath, firstWindow),
    budget: options.budget,
    price: options.price,
    listener,
    signal: options.signal,
  });

  const changes = session.pageChanges();
  let staleMarked: string[] = [];
  if (item.state === 'changed') {
    const citing = session.contentPages().filter((p) => sourcesOf(p.frontmatter).some((s) => s.split('#')[0] === source.rawPath));
    const toMark = pagesToMarkStale(manifest, source.rawPath, [...changes.created, ...changes.updated], citing.map((p) => p.path));
    staleMarked = options.dryRun ? await markStaleInOverlay(session, toMark) : (await markStale(ws.root, toMark, isoDate(), session.run)).marked;
    await session.reloadPages(staleMarked);
  }
  // A run the provider failed before the model did anything changed nothing: no index or log
  // upkeep, so a cron job retrying against a misconfigured or unreachable provider leaves no trace.
  const untouched = run.status === 'provider_error' && run.turns === 0 && changes.created.length + changes.updated.length === 0;
  if (!untouched) await session.refreshIndex();
  const findings: Finding[] = await session.revalidateTouched();
  // A contract without a source type has no source folder: then any content page may cite it.
  const sourceFolder = ws.schema.contract.types.source?.folder ?? 'wiki';
  const sourcePage = changes.created.concat(changes.updated).find((p) => p.startsWith(`${sourceFolder}/`));
  const title = (sourcePage && stringField(session.pages.pages().find((p) => p.path === sourcePage)?.frontmatter ?? {}, 'title')) || source.rawPath;
  const outcome: SourceOutcome = {
    ...summariseRun(run, changes, findings, Date.now() - started, options.budget),
    source: source.rawPath,
    state: item.state,
    warnings,
    staleMarked,
    copiedFrom: source.copiedFrom,
    url: source.url,
  };
  if (outcome.status === 'done' && !citedFromFolder(session, sourceFolder, source.rawPath)) {
    outcome.status = 'incomplete';
    const rejected = outcome.rejectedWrites.length;
    outcome.error = `no page in ${sourceFolder}/ cites ${source.rawPath}${rejected ? ` (${rejected} write(s) were rejected)` : ''}`;
  }
  const op = outcome.status === 'interrupted' ? 'ingest-interrupted' : outcome.status === 'incomplete' ? 'ingest-incomplete' : 'ingest';
  const entry = untouched ? undefined : await session.appendLog(op, title, logLines(outcome));
  if (source.copiedFrom || source.url) session.alsoChanged.add(source.rawPath);
  for (const page of staleMarked) session.alsoChanged.add(page);
  let next = manifest;
  if (outcome.status === 'done' && !options.dryRun) {
    next = recordIngest(manifest, source.rawPath, {
      sha256: item.sha256,
      size: (await stat(path.join(ws.root, source.rawPath))).size,
      ingestedAt: new Date().toISOString(),
      runId,
      pages: changes,
    });
    await saveManifest(ws.root, next, session.run);
  }
  if (outcome.status === 'done' && entry) {
    const notice = await session.autoCommit(entry.split('\n')[0] ?? entry);
    if (notice) options.onNotice?.(notice);
  }
  await session.finish(historyStatus(outcome.status));
  return { outcome, manifest: next, session };
}

function logLines(outcome: SourceOutcome): string[] {
  const lines = [`source: ${outcome.source}${outcome.url ? ` (${outcome.url})` : ''}`];
  if (outcome.created.length) lines.push(`created: ${outcome.created.join(', ')}`);
  if (outcome.updated.length) lines.push(`updated: ${outcome.updated.join(', ')}`);
  if (outcome.staleMarked.length) lines.push(`marked stale: ${outcome.staleMarked.join(', ')}`);
  if (outcome.rejectedWrites.length) lines.push(`rejected writes: ${outcome.rejectedWrites.length}`);
  lines.push(`status: ${outcome.status}, ${outcome.turns} turn(s), ${outcome.tokens} tokens`);
  return lines;
}

export function lockOptions(
  command: string,
  options: { waitSeconds: number; onNotice?: (message: string) => void; signal?: AbortSignal },
): Parameters<typeof acquireLock>[1] {
  return {
    command,
    waitSeconds: options.waitSeconds,
    onNotice: options.onNotice,
    signal: options.signal,
  };
}

export type { Lock };
