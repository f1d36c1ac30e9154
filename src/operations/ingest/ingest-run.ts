import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { SharedBudget } from '../../agent/loop.js';
import { newRunId } from '../../state/history.js';
import { MANIFEST_PATH, pagesToMarkStale, recordIngest, saveManifest, type Manifest } from '../../state/manifest.js';
import { sourcesOf, stringField } from '../../wiki/page.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { runModelInSession, type RunBudget } from '../run/agent-run.js';
import type { IngestOptions, SourceOutcome } from './ingest-report.js';
import type { ResolvedSource } from './ingest-inputs.js';
import { citedFromFolder, firstSourceWindow } from './ingest-steps.js';
import { staleClaimsMessage } from './ingest-following.js';
import { followChange, markStaleInRun, settleStaleClaims } from '../sources/source-following.js';
import { currentSourceText } from '../sources/earlier-text.js';
import { keepSourceText } from '../../state/source-texts.js';
import { historyStatus, summariseRun } from '../run/run-outcome.js';
import { sourceRelevanceText } from '../prompt/prompt-relevance.js';
import { Session } from '../run/session.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import type { SharedWorkspace } from '../run/shared-workspace.js';

export interface IngestItem {
  source: ResolvedSource;
  sha256: string;
  /** When hashing `sha256` began (ms since epoch): the stamp's seenAt. */
  hashedAt: number;
  state: SourceOutcome['state'];
}

/** The manifest as the command's runs leave it, one after-step at a time. */
export interface ManifestCell {
  value: Manifest;
}

/**
 * One source's ingest: its own agent run (own history run, transcript and log entry), then
 * the deterministic after-steps — stale marks, index.md, re-validation, log, manifest, git —
 * which go through the shared mutex, so runs working beside it never interleave there.
 */
export async function ingestOne(
  ws: WorkspaceHandle,
  shared: SharedWorkspace,
  item: IngestItem,
  manifest: ManifestCell,
  options: IngestOptions & { sharedBudget?: SharedBudget; commandLimits?: Pick<RunBudget, 'maxTokens' | 'maxCost'> },
  warnings: string[],
): Promise<{ outcome: SourceOutcome; session: Session }> {
  const { source } = item;
  const started = Date.now();
  const model = options.model();
  const runId = newRunId();
  const session = await Session.open(
    ws,
    {
      op: 'ingest',
      title: source.rawPath,
      runId,
      dryRun: options.dryRun,
      readOnly: false,
      overwriteEdits: options.overwriteEdits === true,
      env: options.env,
      review: options.review?.forRun({ path: source.rawPath, sha256: item.sha256 }),
    },
    shared,
  );
  const readPath = source.rawPath;
  const firstWindow = await firstSourceWindow(session, readPath, source.copiedFrom);
  // Deterministic, before the model: citations follow moved lines; sentences citing changed lines are listed.
  const following = await followChange(session, manifest.value, source.rawPath, item.state);
  const userMessage = [
    `Ingest the source \`${readPath}\`${source.url ? ` (fetched from ${source.url})` : ''}${item.state === 'changed' ? ' — it has CHANGED since it was last ingested: update the pages that draw on it' : ''}.`,
    ...(following ? staleClaimsMessage(following) : []),
    // A change the tool could diff is described above; the first-ingest instruction to read it all would contradict it.
    ...(following?.earlierKnown ? [] : ['', firstWindow]),
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
    sharedBudget: options.sharedBudget,
  });

  return shared.changes.run(async () => {
    const changes = session.pageChanges();
    let staleMarked: string[] = [];
    let settledReport: SourceOutcome['following'];
    if (item.state === 'forced' && following) {
      const settled = await settleStaleClaims(session, source.rawPath, following, [...changes.created, ...changes.updated]);
      settledReport = { citationsMoved: 0, staleClaims: following.staleClaims.length, settled: settled.settled, earlierKnown: true };
    }
    if (item.state === 'changed') {
      const citing = session.contentPages().filter((p) => sourcesOf(p.frontmatter).some((s) => s.split('#')[0] === source.rawPath));
      let toMark = pagesToMarkStale(manifest.value, source.rawPath, [...changes.created, ...changes.updated], citing.map((p) => p.path), ws.schema.contract);
      if (following?.earlierKnown) {
        const settled = await settleStaleClaims(session, source.rawPath, following, [...changes.created, ...changes.updated]);
        toMark = settled.toMark;
        settledReport = { citationsMoved: following.citationsMoved, staleClaims: following.staleClaims.length, settled: settled.settled, earlierKnown: true };
      } else if (following) settledReport = { citationsMoved: 0, staleClaims: 0, settled: 0, earlierKnown: false };
      const marking = await markStaleInRun(session, toMark);
      staleMarked = marking.marked;
      for (const why of marking.refused) warnings.push(`not marked stale: ${why}`);
    }
    // A run the provider failed before the model did anything changed nothing: no index or log
    // upkeep, so a cron job retrying against a misconfigured or unreachable provider leaves no trace.
    const untouched = run.status === 'provider_error' && run.turns === 0 && changes.created.length + changes.updated.length === 0;
    if (!untouched) await session.refreshIndex();
    const findings: Finding[] = await session.revalidateTouched();
    // A contract without a source type has no source folder: then any content page may cite it.
    const sourceFolder = ws.schema.contract.types.source?.folder ?? 'wiki';
    const sourcePage = changes.created.concat(changes.updated).find((p) => p.startsWith(`${sourceFolder}/`));
    const title = (sourcePage && stringField(session.pages.atPath(sourcePage)?.frontmatter ?? {}, 'title')) || source.rawPath;
    const outcome: SourceOutcome = {
      ...summariseRun(run, changes, findings, Date.now() - started, limitsThatStopped(run.status, options)),
      source: source.rawPath,
      state: item.state,
      warnings,
      staleMarked,
      ...(settledReport ? { following: settledReport } : {}),
      copiedFrom: source.copiedFrom,
      url: source.url,
    };
    if ((run.status === 'budget_tokens' || run.status === 'budget_cost') && options.sharedBudget?.exhausted() !== run.status) {
      outcome.budgetSetting = run.status === 'budget_tokens' ? 'ingest.maxTokensPerSource in wiki.config.json' : 'ingest.maxCostPerSource in wiki.config.json';
    }
    if (outcome.status === 'done' && !citedFromFolder(session, sourceFolder, source.rawPath)) {
      outcome.status = 'incomplete';
      const rejected = outcome.rejectedWrites.filter((r) => !r.rewritten).length;
      outcome.error = `no page in ${sourceFolder}/ cites ${source.rawPath}${rejected ? ` (${rejected} write(s) were rejected)` : ''}`;
    }
    const op = outcome.status === 'interrupted' ? 'ingest-interrupted' : outcome.status === 'incomplete' ? 'ingest-incomplete' : 'ingest';
    const entry = untouched ? undefined : await session.appendLog(op, title, logLines(outcome));
    if (source.copiedFrom || source.url) session.alsoChanged.add(source.rawPath);
    for (const page of staleMarked) session.alsoChanged.add(page);
    if (outcome.status === 'done' && !options.dryRun) {
      const info = await stat(path.join(ws.root, source.rawPath));
      manifest.value = recordIngest(manifest.value, source.rawPath, {
        sha256: item.sha256,
        // A later edit (even during this run) has an mtime after hashedAt: the stamp then proves nothing.
        size: info.size,
        mtimeMs: info.mtimeMs,
        seenAt: item.hashedAt,
        ingestedAt: new Date().toISOString(),
        runId,
        pages: changes,
      });
      await saveManifest(ws.root, manifest.value, session.run);
      // The text the pages were written from: what the next change of the source is diffed against.
      const text = await currentSourceText(ws.root, source.rawPath);
      if (text !== undefined) await keepSourceText(ws.root, item.sha256, text);
      // The record travels with the pages it names: committed with them.
      session.alsoChanged.add(MANIFEST_PATH);
    }
    if (outcome.status === 'done' && entry) {
      const notice = await session.autoCommit(entry.split('\n')[0] ?? entry);
      if (notice) options.onNotice?.(notice);
    }
    await session.finish(historyStatus(outcome.status));
    return { outcome, session };
  });
}

/** The budget a run is reported against: the command's when that is what stopped it, else the source's own. */
function limitsThatStopped(
  status: string,
  options: { budget: RunBudget; sharedBudget?: SharedBudget; commandLimits?: Pick<RunBudget, 'maxTokens' | 'maxCost'> },
): RunBudget {
  const byCommand = (status === 'budget_tokens' || status === 'budget_cost') && options.sharedBudget?.exhausted() === status;
  if (!byCommand) return options.budget;
  return { maxTurns: options.budget.maxTurns, maxOutputTokens: options.budget.maxOutputTokens, ...options.commandLimits };
}

function logLines(outcome: SourceOutcome): string[] {
  const lines = [`source: ${outcome.source}${outcome.url ? ` (${outcome.url})` : ''}`];
  if (outcome.created.length) lines.push(`created: ${outcome.created.join(', ')}`);
  if (outcome.updated.length) lines.push(`updated: ${outcome.updated.join(', ')}`);
  if (outcome.staleMarked.length) lines.push(`marked stale: ${outcome.staleMarked.join(', ')}`);
  if (outcome.following?.earlierKnown) {
    lines.push(`citations moved: ${outcome.following.citationsMoved}`);
    lines.push(`stale claims: ${outcome.following.staleClaims - outcome.following.settled} (of ${outcome.following.staleClaims}; ${outcome.following.settled} settled by this run)`);
  }
  const rewritten = outcome.rejectedWrites.filter((r) => r.rewritten).length;
  if (outcome.rejectedWrites.length) lines.push(`rejected writes: ${outcome.rejectedWrites.length}${rewritten ? ` (${rewritten} followed by an accepted write of the same page)` : ''}`);
  lines.push(`status: ${outcome.status}, ${outcome.turns} turn(s), ${outcome.tokens} tokens`);
  return lines;
}
