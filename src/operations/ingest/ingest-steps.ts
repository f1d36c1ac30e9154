import { readFile, stat } from 'node:fs/promises';
import { newRunId } from '../../state/history.js';
import { UsageError } from '../../errors.js';
import { extractText, isExtractable } from '../../sources/extract.js';
import { sourceLimitsOf } from '../../sources/limits.js';
import { deletedSources, forgetSource, MANIFEST_PATH, markStale, pagesToMarkStale, saveManifest, type Manifest } from '../../state/manifest.js';
import { delimitSourceText } from '../../tools/source-delimiters.js';
import { isoDate } from '../../util/dates.js';
import { sourcesOf } from '../../wiki/page.js';
import { readHead } from './ingest-inputs.js';
import { Session } from '../run/session.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import { listRawSources } from '../../sources/raw-files.js';

/**
 * The steps of an ingest around its model run: the source's first window, what counts as
 * the job done, stale marks in a dry run, and the run that marks a deleted source's pages.
 */

/** Dry run only (no read_file on a file not yet copied): about one window of the source. */
const FIRST_WINDOW_CHARS = 20_000;

/** The first window of the source, read through the read_file tool so offsets match later reads. */
export async function firstSourceWindow(session: Session, rawPath: string, copiedFrom: string | undefined): Promise<string> {
  if (copiedFrom && session.options.dryRun) {
    const bytes = isExtractable(rawPath) ? await readFile(copiedFrom) : await readHead(copiedFrom, FIRST_WINDOW_CHARS * 4);
    const text = (await extractText(rawPath, bytes, sourceLimitsOf(session.ws.config.config.limits))).text;
    const head = text.slice(0, FIRST_WINDOW_CHARS);
    const more = text.length > head.length || (await stat(copiedFrom)).size > bytes.length;
    return `(dry run: the file is not copied into raw/ yet)\n\n${delimitSourceText(rawPath, head)}${more ? '\n\n[… more not shown]' : ''}`;
  }
  const readTool = session.tools.find((t) => t.definition.name === 'read_file');
  if (!readTool) throw new Error('read_file tool missing');
  // The tool's own default window, so the first window is cut like every later one.
  const result = await readTool.run({ path: rawPath, offset: 0 });
  if (result.isError) throw new UsageError(`${rawPath}: ${result.content}`);
  return [
    'Here is the beginning of it, as `read_file` returns it. If the header shows a next offset, write the source page from',
    `this window first, then read on with read_file(path="${rawPath}", offset=<next offset>) and update the source page's`,
    'notes after each window, until the end of the file, before you finish.',
    '',
    result.content,
  ].join('\n');
}

/** Whether a page in the source folder lists `rawPath` in its sources: the ingest's job. */
export function citedFromFolder(session: Session, folder: string, rawPath: string): boolean {
  return session
    .contentPages()
    .some((page) => page.path.startsWith(`${folder}/`) && sourcesOf(page.frontmatter).some((entry) => (entry.split('#')[0] ?? '').trim() === rawPath));
}

/**
 * Sources the manifest knows that are gone from raw/: the pages they produced or that cite
 * them get `stale_since` (never deleted), recorded as a run of its own so it is logged and
 * can be undone like any other change.
 */
export async function handleDeletedSources(
  ws: WorkspaceHandle,
  manifest: Manifest,
  options: { env?: NodeJS.ProcessEnv; onNotice?: (message: string) => void },
): Promise<{ manifest: Manifest; deleted: Array<{ source: string; staleMarked: string[] }> }> {
  const deleted: Array<{ source: string; staleMarked: string[] }> = [];
  const gone = deletedSources(manifest, await listRawSources(ws.root));
  if (gone.length === 0) return { manifest, deleted };
  const session = await Session.open(ws, {
    op: 'ingest',
    title: gone.length === 1 ? `${gone[0]} deleted` : `${gone.length} sources deleted`,
    runId: newRunId(),
    dryRun: false,
    readOnly: false,
    env: options.env,
  });
  let next = manifest;
  const lines: string[] = [];
  for (const source of gone) {
    const citing = session.contentPages().filter((p) => sourcesOf(p.frontmatter).some((s) => s.split('#')[0] === source));
    const candidates = pagesToMarkStale(manifest, source, [], citing.map((p) => p.path), ws.schema.contract);
    const result = await markStale(ws.root, candidates, isoDate(), session.run);
    await session.reloadPages(result.marked);
    for (const page of result.marked) session.alsoChanged.add(page);
    deleted.push({ source, staleMarked: result.marked });
    lines.push(`deleted: ${source}`, `marked stale: ${result.marked.join(', ') || 'nothing'}`, ...result.refused.map((why) => `not marked stale: ${why}`));
    next = forgetSource(next, source);
  }
  await saveManifest(ws.root, next, session.run);
  session.alsoChanged.add(MANIFEST_PATH);
  await session.refreshIndex();
  const entry = await session.appendLog('ingest', session.options.title, lines);
  const notice = await session.autoCommit(entry.split('\n')[0] ?? entry);
  if (notice) options.onNotice?.(notice);
  await session.finish('completed');
  return { manifest: next, deleted };
}
