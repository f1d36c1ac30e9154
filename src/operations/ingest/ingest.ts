import path from 'node:path';
import { emptyUsage } from '../../agent/types.js';
import { ConfigError, UsageError, WikiError } from '../../errors.js';
import { fetchUrlToRaw } from '../../sources/fetch-url.js';
import { acquireLock, type Lock } from '../../state/lock.js';
import { classifySource, hashFile, loadManifest, type Manifest } from '../../state/manifest.js';
import { ProposalStore } from '../review/proposals.js';
import { proposeDeletedSources } from '../review/propose-deleted.js';
import { refreshFacts } from '../inspect/facts.js';
import { checkReadable, copyIntoRaw, planInputs, sizeWarning, type ResolvedSource } from './ingest-inputs.js';
import { DEFAULT_READ_LIMIT } from '../../tools/read-file.js';
import { CommandBudget, runIngestJobs } from './ingest-jobs.js';
import type { IngestItem } from './ingest-run.js';
import { handleDeletedSources } from './ingest-steps.js';
import type { IngestOptions, IngestReport } from './ingest-report.js';
import type { Session } from '../run/session.js';
import { sweepAbandonedTempFiles } from '../run/abandoned-writes.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import { SharedWorkspace } from '../run/shared-workspace.js';
import { sqliteProblem } from '../../facts/sqlite.js';
import { sourceLimitsOf } from '../../sources/limits.js';
import { listRawSources } from '../../sources/raw-files.js';
import { detectRenames, renameSources, waitingRenames } from '../sources/rename-source.js';

/**
 * `wiki ingest`: one agent run per new or changed source, each followed by the
 * deterministic after-steps (re-validate, index, log, manifest, stale marks).
 */
export async function ingestSources(ws: WorkspaceHandle, args: string[], options: IngestOptions): Promise<IngestReport> {
  const plan = await planInputs(ws.root, args, options.cwd);
  if (options.dryRun && plan.urls.length > 0) {
    const flag = options.review ? '--review' : '--dry-run';
    throw new UsageError(`${flag} cannot fetch URLs`, `fetch first with \`wiki ingest URL --no-review\`, or drop ${flag}`);
  }
  // Under review nothing outside .wiki/ changes, raw/ included: a file from elsewhere is not copied in.
  const outside = options.review ? plan.sources.find((s) => s.copiedFrom) : undefined;
  if (outside) throw new UsageError(`--review ingests sources already in raw/, not ${outside.copiedFrom}`, `copy it into raw/ first (cp ${outside.copiedFrom} raw/), then run again`);
  const warnings = new Map<string, string[]>();
  // One bad input is reported and skipped; the rest of the batch goes on and the command exits 1.
  const skipped: IngestReport['skipped'] = [...plan.skipped];
  const readable: ResolvedSource[] = [];
  for (const source of plan.sources) {
    try {
      warnings.set(source.rawPath, await checkReadable(ws.root, source, sourceLimitsOf(ws.config.config.limits)));
      readable.push(source);
      const limits = { windowChars: DEFAULT_READ_LIMIT, maxTurns: ws.config.config.maxTurns, maxFactBytes: ws.config.config.facts.maxSourceBytes };
      const large = await sizeWarning(ws.root, source, limits);
      if (large) options.onNotice?.(large);
    } catch (error) {
      if (!(error instanceof WikiError) || error.exitCode !== 2) throw error;
      // Nothing usable at all is an input error of the command itself: exit 2, nothing written.
      if (readable.length === 0 && plan.urls.length === 0 && skipped.length === plan.skipped.length + plan.sources.length - 1) throw error;
      skipped.push({ source: source.copiedFrom ?? source.rawPath, reason: error.message });
    }
  }

  await requireModelIfNeeded(ws.root, plan.urls, readable, options);

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

    let manifest = await loadManifest(ws.root, { migrate: !options.dryRun });
    const report: IngestReport = {
      ingested: [],
      upToDate: [],
      deletedSources: [],
      skipped,
      unsupported: plan.unsupported,
      ok: skipped.length === 0,
      interrupted: false,
      pending: [],
      totals: { sources: 0, usage: emptyUsage(), tokens: 0, cost: 0 },
    };
    const todo: IngestItem[] = [];
    // A source whose pages already wait in a proposal is not paid for again (unless --force).
    const waiting = await waitingSources(ws);
    for (const source of sources) {
      const file = source.copiedFrom ?? path.join(ws.root, source.rawPath);
      const hashedAt = Date.now();
      const sha256 = await hashFile(file);
      const state = classifySource(manifest, source.rawPath, sha256);
      const proposal = waiting.get(`${source.rawPath}\0${sha256}`);
      if (state === 'unchanged' && !options.force) report.upToDate.push(source.rawPath);
      else if (proposal && !options.force) {
        (report.waiting ??= []).push({ source: source.rawPath, proposal });
        options.onNotice?.(`${source.rawPath}: its pages wait in proposal ${proposal}, not ingested again (wiki review show ${proposal}; --force to ingest anyway)`);
      } else todo.push({ source, sha256, hashedAt, state: state === 'unchanged' ? 'forced' : state });
    }

    // A new path with the content of a recorded source now gone is that source, moved: nothing to re-pay.
    // Under review the move is proposed (once) and the record moves when it is accepted.
    const renamedFrom = new Set<string>();
    if (!options.dryRun || options.review) {
      const waitingMoves = options.review ? await waitingRenames(options.review) : [];
      for (const move of waitingMoves) renamedFrom.add(move.from);
      const fresh = todo.filter((item) => item.state === 'new').map((item) => ({ rawPath: item.source.rawPath, sha256: item.sha256 }));
      const renames = detectRenames(manifest, fresh, await listRawSources(ws.root));
      if (renames.length > 0) {
        const proposeNow = renames.filter((r) => !waitingMoves.some((w) => w.from === r.from && w.to === r.to));
        const handled = await renameSources(ws, manifest, proposeNow, { ...options, review: options.review });
        manifest = handled.manifest;
        if (handled.renamed.length > 0) report.renamed = handled.renamed.map(({ from, to, pages }) => ({ from, to, pages }));
        for (const move of renames) renamedFrom.add(move.from);
        const moved = new Set(renames.map((r) => r.to));
        todo.splice(0, todo.length, ...todo.filter((item) => !moved.has(item.source.rawPath)));
      }
    }

    if (!options.dryRun) {
      const handled = await handleDeletedSources(ws, manifest, options);
      manifest = handled.manifest;
      report.deletedSources.push(...handled.deleted);
    } else if (options.review) {
      report.deletedSources.push(...(await proposeDeletedSources(ws, manifest, { env: options.env, review: options.review, renamedFrom })));
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

    if (options.review) {
      await proposeEach(ws, todo, manifest, options, (raw) => warnings.get(raw) ?? [], report);
      return report;
    }
    const jobs = options.dryRun ? 1 : ws.config.config.ingest.jobs;
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

/**
 * A run that will need the model and has none (no provider, no key) is refused before anything
 * is fetched, copied into raw/ or marked: exit 2 promises nothing was written. Runs that need
 * no model (every source up to date) go on without one.
 */
async function requireModelIfNeeded(root: string, urls: readonly string[], sources: readonly ResolvedSource[], options: IngestOptions): Promise<void> {
  try {
    options.model();
  } catch (error) {
    if (urls.length > 0 || (options.force && sources.length > 0)) throw error;
    const manifest = await loadManifest(root, { migrate: false });
    const hashes = new Map<string, string>();
    for (const source of sources) hashes.set(source.rawPath, await hashFile(source.copiedFrom ?? path.join(root, source.rawPath)));
    // A source found under a new path is followed with no model (its record, pages and citations move): a user without a key can rename one.
    const fresh = sources.filter((source) => manifest.sources[source.rawPath] === undefined).map((source) => ({ rawPath: source.rawPath, sha256: hashes.get(source.rawPath) ?? '' }));
    const moved = new Set(detectRenames(manifest, fresh, await listRawSources(root)).map((rename) => rename.to));
    for (const source of sources) {
      if (moved.has(source.rawPath)) continue;
      const state = classifySource(manifest, source.rawPath, hashes.get(source.rawPath) ?? '');
      // A changed source's citations can follow it with no model: said where the refusal is read.
      if (state === 'changed' && error instanceof ConfigError) {
        throw new ConfigError(error.message, `${error.hint ?? 'configure a model provider'}; or, without a model, move a changed source's citations to its new lines: \`wiki lint --fix --no-llm\``);
      }
      if (state !== 'unchanged') throw error;
    }
  }
}

/** `source\0sha256` → the proposal its pages wait in. */
async function waitingSources(ws: WorkspaceHandle): Promise<Map<string, string>> {
  const waiting = new Map<string, string>();
  for (const proposal of await new ProposalStore(ws.root, ws.config.config.reviewFolder).list()) {
    if (proposal.source) waiting.set(`${proposal.source.path}\0${proposal.source.sha256}`, proposal.id);
  }
  return waiting;
}

/**
 * Under --review each source is its own run over the wiki as it is — not over another
 * source's proposal — so each leaves a proposal of its own, accepted or rejected alone.
 */
async function proposeEach(
  ws: WorkspaceHandle,
  todo: IngestItem[],
  manifest: Manifest,
  options: IngestOptions,
  warningsOf: (rawPath: string) => string[],
  report: IngestReport,
): Promise<void> {
  const budget = new CommandBudget(options.budget);
  for (const [index, item] of todo.entries()) {
    const stop = options.signal?.aborted || report.interrupted || budget.exhausted() !== undefined || report.ingested.some((o) => o.status === 'provider_error');
    if (stop) {
      report.pending.push(...todo.slice(index).map((t) => t.source.rawPath));
      report.ok = false;
      return;
    }
    const shared = await SharedWorkspace.open(ws, { env: options.env ?? process.env, persist: false });
    try {
      await runIngestJobs(ws, shared, [item], { value: manifest }, { ...options, jobs: 1 }, warningsOf, report, budget);
    } finally {
      await shared.close();
    }
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
export type { IngestOptions, IngestReport, SourceOutcome } from './ingest-report.js';
