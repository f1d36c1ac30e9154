import { newRunId } from '../../state/history.js';
import { deletedSources, pagesToMarkStale, type Manifest } from '../../state/manifest.js';
import { listRawSources } from '../../sources/raw-files.js';
import { sourcesOf } from '../../wiki/page.js';
import { markStaleInOverlay } from '../sources/source-following.js';
import { Session } from '../run/session.js';
import type { WorkspaceHandle } from '../run/workspace-handle.js';
import type { ReviewRequest } from './propose.js';

/**
 * Under review, the stale marks for sources deleted from raw/ are proposed like any other
 * change to wiki/: one run over an overlay, kept as a proposal. The ingest record keeps
 * the deleted source until a run without review forgets it; a deletion whose marks wait,
 * or whose pages are marked already, is not proposed again.
 */
export async function proposeDeletedSources(
  ws: WorkspaceHandle,
  manifest: Manifest,
  options: { env?: NodeJS.ProcessEnv; review: ReviewRequest; renamedFrom?: ReadonlySet<string> },
): Promise<Array<{ source: string; staleMarked: string[] }>> {
  // A deletion whose marks already wait in a proposal is not proposed again.
  const waiting = new Set((await options.review.store.list()).flatMap((p) => p.log.filter((line) => line.startsWith('deleted: ')).map((line) => line.slice('deleted: '.length))));
  // A source renamed (its move proposed, or waiting) is not deleted: its pages follow it when the move is accepted.
  const gone = deletedSources(manifest, await listRawSources(ws.root)).filter((source) => !waiting.has(source) && !options.renamedFrom?.has(source));
  if (gone.length === 0) return [];
  const title = gone.length === 1 ? `${gone[0]} deleted` : `${gone.length} sources deleted`;
  const session = await Session.open(ws, { op: 'ingest', title, runId: newRunId(), dryRun: true, readOnly: false, env: options.env, review: options.review.forRun() });
  const deleted: Array<{ source: string; staleMarked: string[] }> = [];
  const lines: string[] = [];
  try {
    for (const source of gone) {
      const citing = session.contentPages().filter((p) => sourcesOf(p.frontmatter).some((s) => s.split('#')[0] === source));
      const marked = await markStaleInOverlay(session, pagesToMarkStale(manifest, source, [], citing.map((p) => p.path), ws.schema.contract));
      await session.reloadPages(marked);
      deleted.push({ source, staleMarked: marked });
      lines.push(`deleted: ${source}`, `marked stale: ${marked.join(', ') || 'nothing'}`);
    }
    if (deleted.some((d) => d.staleMarked.length > 0)) await session.appendLog('ingest', title, lines);
  } finally {
    await session.finish('completed');
  }
  return deleted;
}
