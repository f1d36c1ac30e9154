import { forgetSource, MANIFEST_PATH, recordIngest, saveManifest, type Manifest } from '../../state/manifest.js';
import { newRunId } from '../../state/history.js';
import { loadStaleClaims, saveStaleClaims } from '../../state/stale-claims.js';
import { writeToolEdit } from '../../state/tool-edit.js';
import { SOURCE_FOLLOW_PLACE } from '../../state/write-places.js';
import { renameSourceIn } from '../../sources/citation-moves.js';
import { Session } from '../run/session.js';
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
  options: { env?: NodeJS.ProcessEnv; onNotice?: (message: string) => void },
): Promise<{ manifest: Manifest; renamed: SourceRename[] }> {
  if (renames.length === 0) return { manifest, renamed: [] };
  const first = renames[0] as { from: string; to: string };
  const session = await Session.open(ws, {
    op: 'ingest',
    title: renames.length === 1 ? `${first.from} renamed to ${first.to}` : `${renames.length} sources renamed`,
    runId: newRunId(),
    dryRun: false,
    readOnly: false,
    env: options.env,
  });
  let next = manifest;
  const renamed: SourceRename[] = [];
  const lines: string[] = [];
  for (const { from, to } of renames) {
    const entry = next.sources[from];
    if (!entry) continue;
    const pages: string[] = [];
    for (const page of session.contentPages()) {
      if (!SOURCE_FOLLOW_PLACE.allows(page.path)) continue;
      const text = await session.readIfExists(page.path);
      if (text === undefined || !text.includes(from)) continue;
      const result = renameSourceIn(text, from, to);
      if (result.renamed === 0) continue;
      session.versions.changing(page.path, text);
      await writeToolEdit(ws.root, SOURCE_FOLLOW_PLACE, page.path, text, result.text, session.run);
      session.alsoChanged.add(page.path);
      pages.push(page.path);
    }
    await session.reloadPages(pages);
    next = recordIngest(forgetSource(next, from), to, entry);
    renamed.push({ from, to, pages });
    lines.push(`renamed: ${from} -> ${to}`, `pages following it: ${pages.join(', ') || 'none'}`);
  }
  await saveManifest(ws.root, next, session.run);
  session.alsoChanged.add(MANIFEST_PATH);
  const claims = await loadStaleClaims(ws.root);
  if (claims.some((claim) => renames.some((r) => r.from === claim.source))) {
    await saveStaleClaims(ws.root, claims.map((claim) => ({ ...claim, source: renames.find((r) => r.from === claim.source)?.to ?? claim.source })));
  }
  await session.refreshIndex();
  const entryText = await session.appendLog('ingest', session.options.title, lines);
  const notice = await session.autoCommit(entryText.split('\n')[0] ?? entryText);
  if (notice) options.onNotice?.(notice);
  await session.finish('completed');
  return { manifest: next, renamed };
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
