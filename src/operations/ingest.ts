import path from 'node:path';
import type { AgentListener } from '../agent/events.js';
import { emptyUsage, type ChatModel, type Usage } from '../agent/types.js';
import { UsageError, WikiError } from '../errors.js';
import type { ExtractionReport } from '../facts/extract.js';
import { fetchUrlToRaw } from '../sources/fetch-url.js';
import { acquireLock, type Lock } from '../state/lock.js';
import { classifySource, hashFile, loadManifest } from '../state/manifest.js';
import type { RunBudget } from './agent-run.js';
import { refreshFacts } from './facts.js';
import { checkReadable, copyIntoRaw, planInputs, type ResolvedSource } from './ingest-inputs.js';
import { runIngestJobs } from './ingest-jobs.js';
import type { IngestItem } from './ingest-run.js';
import { handleDeletedSources } from './ingest-steps.js';
import type { RunOutcome } from './run-outcome.js';
import { sweepAbandonedTempFiles, type Session, type WorkspaceHandle } from './session.js';
import { SharedWorkspace } from './shared-workspace.js';
import { sqliteProblem } from '../facts/sqlite.js';

export interface IngestOptions {
  cwd: string;
  force: boolean;
  dryRun: boolean;
  /** The model may drop what a human changed on a page (`--overwrite-edits`). */
  overwriteEdits?: boolean;
  waitSeconds: number;
  /** `maxTokens` / `maxCost` bound the whole command, every job's calls together. */
  budget: RunBudget;
  /** Each source's own budget (ingest.maxTokensPerSource / maxCostPerSource in wiki.config.json). */
  perSource?: { maxTokens?: number | undefined; maxCost?: number | undefined };
  /** Sources ingested at once (`--jobs`; default ingest.jobs in wiki.config.json). */
  jobs?: number;
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
  /** Model usage of every source run together; `cost` undefined when any run's price was unknown. */
  totals: { sources: number; usage: Usage; tokens: number; cost: number | undefined };
}

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
    const report: IngestReport = {
      ingested: [],
      upToDate: [],
      deletedSources: [],
      skipped,
      ok: skipped.length === 0,
      interrupted: false,
      pending: [],
      totals: { sources: 0, usage: emptyUsage(), tokens: 0, cost: 0 },
    };
    const todo: IngestItem[] = [];
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

    const jobs = options.dryRun ? 1 : Math.max(1, options.jobs ?? ws.config.config.ingest.jobs);
    const shared = await SharedWorkspace.open(ws, { env: options.env ?? process.env, persist: !options.dryRun });
    let diffSession: Session | undefined;
    try {
      const cell = { value: manifest };
      diffSession = await runIngestJobs(ws, shared, todo, cell, { ...options, jobs }, (raw) => warnings.get(raw) ?? [], report);
    } finally {
      await shared.close();
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
