import path from 'node:path';
import fg from 'fast-glob';
import { InputError, UsageError } from '../../errors.js';
import { carriedHumanLines } from '../../state/human-lines.js';
import { humanEditBase } from '../../state/human-edits.js';
import { newRunId } from '../../state/history.js';
import { acquireLock } from '../../state/lock.js';
import { hashFile } from '../../state/manifest.js';
import { writeToolEdit } from '../../state/tool-edit.js';
import { SOURCE_FOLLOW_PLACE } from '../../state/write-places.js';
import { isoDate } from '../../util/dates.js';
import { listRawSources } from '../../sources/raw-files.js';
import { stringField } from '../../wiki/page.js';
import type { ReviewRequest } from '../review/propose.js';
import type { ProposedPage } from '../review/proposals.js';
import { Session } from '../run/session.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import { pageFate, type PageFate } from './remove-plan.js';
import { editsForRemoval } from './remove-edits.js';
import { removeSourceFiles } from './source-effects.js';

export interface RemovePlan {
  sources: string[];
  /** Pages drawing only on the removed sources: deleted. */
  removed: string[];
  /** Pages drawing only on them that hold a person's lines: kept (archived), reported. */
  keptForHumanLines: string[];
  /** Pages drawing on others too, with the sentences that cited only removed sources. */
  trimmed: Array<{ page: string; unsupported: Array<{ line: number; sentence: string }> }>;
  /** Pages whose links to removed pages become plain text. */
  unlinked: string[];
}

export interface RemoveReport extends RemovePlan {
  dryRun: boolean;
  prune: boolean;
  /** Sentences removed with --prune. */
  pruned: number;
  runId?: string;
  /** Under review: the proposal the removal waits in (nothing changed yet). */
  proposal?: string;
}

/** The raw sources `args` name (files, folders, globs), each under raw/; refused when one names nothing or lies elsewhere. */
export async function resolveSources(root: string, cwd: string, args: readonly string[]): Promise<string[]> {
  const all = await listRawSources(root);
  const chosen = new Set<string>();
  for (const arg of args) {
    const absolute = path.resolve(cwd, arg);
    const relative = path.relative(root, absolute).split(path.sep).join('/');
    if (relative !== 'raw' && !relative.startsWith('raw/')) throw new UsageError(`${arg} is not under raw/ of this workspace`, 'name a source file, folder or glob under raw/, e.g. `wiki rm raw/old-paper.md`');
    const matched = fg.isDynamicPattern(relative)
      ? all.filter((file) => fg.sync(relative, { cwd: root, onlyFiles: true, dot: false, followSymbolicLinks: false }).includes(file))
      : all.filter((file) => file === relative || file.startsWith(`${relative.replace(/\/$/, '')}/`));
    if (matched.length === 0) throw new InputError(`${arg} names no source in raw/`, '`wiki status` lists the sources');
    for (const file of matched) chosen.add(file);
  }
  return [...chosen].sort();
}

/**
 * `wiki rm`: sources leave raw/ and the record, their facts are tombstoned, pages drawing
 * only on them are removed (kept and archived when they hold a person's lines), pages
 * drawing on others lose them from `sources` and their citations of them (the sentences
 * citing only them are listed as unsupported, or removed with --prune), links to removed
 * pages become plain text; one logged run that `wiki undo` reverts. The plan is made apart
 * from the writes, so `--dry-run` shows exactly what would happen.
 */
export async function removeSources(
  ws: WorkspaceHandle,
  sources: readonly string[],
  options: { dryRun: boolean; prune: boolean; env?: NodeJS.ProcessEnv; onNotice?: (message: string) => void; review?: ReviewRequest | undefined },
): Promise<RemoveReport> {
  const review = options.dryRun ? undefined : options.review;
  if (review) await refuseWaitingRemoval(review, sources);
  // Under review nothing outside .wiki/ changes: the plan is kept as a proposal, as a dry run's is shown.
  const planOnly = options.dryRun || review !== undefined;
  const lock = planOnly ? undefined : await acquireLock(ws.root, { command: 'rm', waitSeconds: 0 });
  lock?.releaseOnExit();
  try {
    const runId = newRunId();
    const session = await Session.open(ws, { op: 'rm', title: sources.length === 1 ? (sources[0] as string) : `${sources.length} sources`, runId, dryRun: planOnly, readOnly: planOnly, env: options.env });
    const { report, edits, texts } = await planRemoval(session, sources, options);
    if (planOnly) {
      await session.finish('completed');
      if (review) {
        const pages: ProposedPage[] = [
          ...[...edits].map(([page, after]) => ({ path: page, change: 'updated' as const, before: texts.get(page) ?? '', after })),
          ...report.removed.map((page) => ({ path: page, change: 'removed' as const, before: texts.get(page) ?? '' })),
        ];
        const sha256: Record<string, string> = {};
        for (const source of sources) sha256[source] = await hashFile(path.join(ws.root, ...source.split('/')));
        await review.propose({ op: 'rm', title: session.options.title, runId, user: undefined }, pages, { log: logLines(report), effects: [{ kind: 'remove-sources', sources: [...sources], sha256 }] });
        report.proposal = runId;
      }
      return report;
    }
    report.runId = runId;
    for (const [page, text] of edits) {
      const before = texts.get(page) ?? '';
      session.versions.changing(page, before);
      await writeToolEdit(ws.root, SOURCE_FOLLOW_PLACE, page, before, text, session.run);
      session.alsoChanged.add(page);
    }
    await session.reloadPages([...edits.keys()]);
    for (const page of report.removed) await session.deleteFile(page);
    await removeSourceFiles(session, sources, report.removed, options.onNotice);
    await session.refreshIndex();
    const entry = await session.appendLog('rm', session.options.title, logLines(report));
    const notice = await session.autoCommit(entry.split('\n')[0] ?? entry);
    if (notice) options.onNotice?.(notice);
    await session.finish('completed');
    return report;
  } finally {
    await lock?.release();
  }
}

/** What removing `sources` does to each page, planned apart from any write; `texts` holds every page planned for, as read. */
async function planRemoval(session: Session, sources: readonly string[], options: { dryRun: boolean; prune: boolean }): Promise<{ report: RemoveReport; edits: Map<string, string>; texts: Map<string, string> }> {
  const removed = new Set(sources);
  const fates: PageFate[] = [];
  const texts = new Map<string, string>();
  for (const page of session.contentPages()) {
    const text = await session.readIfExists(page.path);
    if (text === undefined) continue;
    const human = (await humanEditBase(session.root, page.path, text)) !== undefined || (await carriedHumanLines(session.root, page.path)).length > 0;
    const fate = pageFate(page, text, removed, human);
    if (fate) {
      fates.push(fate);
      texts.set(page.path, text);
    }
  }
  const gone = new Map(fates.filter((f) => f.kind === 'remove').map((f) => [session.pages.atPath(f.page)?.key ?? '', f.page] as const));
  const titleOf = (key: string): string => {
    const page = gone.get(key);
    return (page && stringField(session.pages.atPath(page)?.frontmatter ?? {}, 'title')) || key.replace(/-/g, ' ');
  };
  const report: RemoveReport = {
    sources: [...sources],
    removed: fates.filter((f) => f.kind === 'remove').map((f) => f.page),
    keptForHumanLines: fates.filter((f) => f.kind === 'keep-human').map((f) => f.page),
    trimmed: fates.flatMap((f) => (f.kind === 'trim' ? [{ page: f.page, unsupported: f.unsupported }] : [])),
    unlinked: [],
    dryRun: options.dryRun,
    prune: options.prune,
    pruned: 0,
  };
  const goneKeys = new Set(gone.keys());
  const edits = new Map<string, string>();
  for (const page of session.contentPages()) {
    if (goneKeys.has(page.key)) continue;
    const text = texts.get(page.path) ?? (await session.readIfExists(page.path));
    if (text === undefined) continue;
    const fate = fates.find((f) => f.page === page.path);
    const edit = editsForRemoval(text, removed, goneKeys, titleOf, { fate, prune: options.prune, today: isoDate() });
    if (edit.unlinked > 0) report.unlinked.push(page.path);
    report.pruned += edit.pruned;
    if (edit.text !== text) {
      edits.set(page.path, edit.text);
      texts.set(page.path, text);
    }
  }
  return { report, edits, texts };
}

/** The removal of a source already waiting in a proposal is not proposed twice. */
async function refuseWaitingRemoval(review: ReviewRequest, sources: readonly string[]): Promise<void> {
  for (const proposal of await review.store.list()) {
    const waiting = (proposal.effects ?? []).flatMap((effect) => (effect.kind === 'remove-sources' ? effect.sources : []));
    const again = sources.find((source) => waiting.includes(source));
    if (again) throw new UsageError(`the removal of ${again} already waits in proposal ${proposal.id}`, `accept it (wiki review accept ${proposal.id}) or reject it first`);
  }
}

function logLines(report: RemoveReport): string[] {
  const lines = [`removed sources: ${report.sources.join(', ')}`];
  if (report.removed.length) lines.push(`removed pages: ${report.removed.join(', ')}`);
  if (report.keptForHumanLines.length) lines.push(`kept for their human lines (archived): ${report.keptForHumanLines.join(', ')}`);
  if (report.trimmed.length) lines.push(`updated: ${report.trimmed.map((t) => t.page).join(', ')}`);
  const unsupported = report.trimmed.reduce((n, t) => n + t.unsupported.length, 0);
  if (unsupported) lines.push(report.prune ? `sentences removed: ${report.pruned} of ${unsupported}` : `sentences left without support: ${unsupported}`);
  return lines;
}
