import type { Manifest } from '../../state/manifest.js';
import { newRunId } from '../../state/history.js';
import { writeToolEdit } from '../../state/tool-edit.js';
import { SOURCE_FOLLOW_PLACE } from '../../state/write-places.js';
import { renameSourceIn } from '../../sources/citation-moves.js';
import type { ReviewRequest } from '../review/propose.js';
import type { ProposedPage } from '../review/proposals.js';
import { Session } from '../run/session.js';
import { recordRenames } from './source-effects.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';

export interface SourceRename {
  from: string;
  to: string;
  /** Pages whose `sources` or citations now name the new path. */
  pages: string[];
}

/**
 * Sources that reappear under a new path with the same content (same sha256) and are gone
 * from the old one: the same source, renamed or moved. The record, the pages' `sources` and
 * citations follow the new path — no model, nothing re-ingested or re-paid — as one run of
 * its own, logged and undoable.
 */
export async function renameSources(
  ws: WorkspaceHandle,
  manifest: Manifest,
  renames: ReadonlyArray<{ from: string; to: string }>,
  options: { env?: NodeJS.ProcessEnv; onNotice?: (message: string) => void; review?: ReviewRequest | undefined },
): Promise<{ manifest: Manifest; renamed: SourceRename[] }> {
  const known = renames.filter(({ from }) => manifest.sources[from] !== undefined);
  if (known.length === 0) return { manifest, renamed: [] };
  const first = known[0] as { from: string; to: string };
  const review = options.review;
  // Under review the citations' new text is kept as a proposal, and the record moves only when it is accepted.
  const session = await Session.open(ws, {
    op: 'ingest',
    title: known.length === 1 ? `${first.from} renamed to ${first.to}` : `${known.length} sources renamed`,
    runId: newRunId(),
    dryRun: review !== undefined,
    readOnly: false,
    env: options.env,
  });
  const renamed: SourceRename[] = [];
  const lines: string[] = [];
  const proposed: ProposedPage[] = [];
  for (const { from, to } of known) {
    const pages: string[] = [];
    for (const page of session.contentPages()) {
      if (!SOURCE_FOLLOW_PLACE.allows(page.path)) continue;
      const text = await session.readIfExists(page.path);
      if (text === undefined || !text.includes(from)) continue;
      const result = renameSourceIn(text, from, to);
      if (result.renamed === 0) continue;
      if (review) await session.fs.writeText(session.abs(page.path), result.text);
      else {
        session.versions.changing(page.path, text);
        await writeToolEdit(ws.root, SOURCE_FOLLOW_PLACE, page.path, text, result.text, session.run);
        session.alsoChanged.add(page.path);
      }
      pages.push(page.path);
    }
    await session.reloadPages(pages);
    renamed.push({ from, to, pages });
    lines.push(`renamed: ${from} -> ${to}`, `pages following it: ${pages.join(', ') || 'none'}`);
  }
  if (review) {
    // Several renames may rewrite one page: the proposal holds its first and last text.
    for (const change of session.overlay?.changes() ?? []) proposed.push({ path: change.path, change: 'updated', before: change.before ?? '', after: change.after });
    await session.finish('completed');
    await review.propose({ op: 'ingest', title: session.options.title, runId: session.options.runId, user: undefined }, proposed, { log: lines, effects: [{ kind: 'rename-sources', renames: known.map(({ from, to }) => ({ from, to })) }] });
    return { manifest, renamed };
  }
  const next = await recordRenames(session, manifest, known);
  await session.refreshIndex();
  const entryText = await session.appendLog('ingest', session.options.title, lines);
  const notice = await session.autoCommit(entryText.split('\n')[0] ?? entryText);
  if (notice) options.onNotice?.(notice);
  await session.finish('completed');
  return { manifest: next, renamed };
}

/** Renames whose proposal already waits: not proposed again, and their old paths are not deletions. */
export async function waitingRenames(review: ReviewRequest): Promise<Array<{ from: string; to: string }>> {
  return (await review.store.list()).flatMap((p) => (p.effects ?? []).flatMap((effect) => (effect.kind === 'rename-sources' ? effect.renames : [])));
}

/** New sources whose content a recorded source had, at a path now gone from raw/: renames. */
export function detectRenames(manifest: Manifest, fresh: ReadonlyArray<{ rawPath: string; sha256: string }>, existing: readonly string[]): Array<{ from: string; to: string }> {
  const present = new Set(existing);
  const taken = new Set<string>();
  const renames: Array<{ from: string; to: string }> = [];
  for (const source of fresh) {
    const from = Object.keys(manifest.sources)
      .sort()
      .find((recorded) => !present.has(recorded) && !taken.has(recorded) && manifest.sources[recorded]?.sha256 === source.sha256);
    if (from === undefined) continue;
    taken.add(from);
    renames.push({ from, to: source.rawPath });
  }
  return renames;
}
