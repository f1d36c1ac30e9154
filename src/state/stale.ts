import path from 'node:path';
import { SandboxError } from '../errors.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { parsePage, serialisePage, splitFrontmatter } from '../wiki/page.js';
import { editFrontmatter, setField } from '../wiki/frontmatter-edit.js';
import { invalidUtf8Offset } from '../util/utf8.js';
import type { Run } from './history.js';
import { writeToolEdit } from './tool-edit.js';
import { STALE_MARK_PLACE } from './write-places.js';

export interface MarkStaleResult {
  /** Pages that now carry `stale_since`. */
  marked: string[];
  /** Pages that already had it (left as they were, keeping the earlier date). */
  alreadyStale: string[];
  /** Pages that no longer exist. */
  missing: string[];
  /** Pages whose frontmatter does not parse; not touched, for lint to report. */
  unparseable: string[];
  /** Pages that are not valid UTF-8; not touched (a rewrite would replace their bytes), for lint to report. */
  notUtf8: string[];
  /**
   * Paths not marked, each with why: not a page under wiki/ (a crafted source record
   * may name `schema.md`, `raw/…`, `.git/config`), or reached through a link.
   */
  refused: string[];
}

/**
 * The page text with `stale_since: <date>` added (pure; the body is kept byte for byte), or
 * why not. A dry run applies it to its overlay; `markStale` to the disk.
 */
export function withStaleSince(pagePath: string, text: string, date: string): string | 'unparseable' | 'already-stale' {
  const page = parsePage(pagePath, text);
  if (page.parseError) return 'unparseable';
  if (page.frontmatter.stale_since !== undefined && page.frontmatter.stale_since !== null) return 'already-stale';
  // The owner's block is edited, not printed afresh: one line is added, the rest kept byte for byte.
  const edited = editFrontmatter(text, page, ['stale_since'], (doc, map) => setField(doc, map, 'stale_since', date));
  if (edited !== undefined) return edited;
  const { body } = splitFrontmatter(text);
  return serialisePage({ ...page.frontmatter, stale_since: date }, '') + body;
}

/** The page text without `stale_since` (the body kept byte for byte), or undefined when it has none or does not parse. */
export function withoutStaleSince(pagePath: string, text: string): string | undefined {
  const page = parsePage(pagePath, text);
  if (page.parseError || page.frontmatter.stale_since === undefined) return undefined;
  const edited = editFrontmatter(text, page, ['stale_since'], (_doc, map) => {
    map.delete('stale_since');
  });
  if (edited !== undefined) return edited;
  const { stale_since: _cleared, ...rest } = page.frontmatter;
  const { body } = splitFrontmatter(text);
  return serialisePage(rest, '') + body;
}

/** Set `stale_since: <date>` on each page that does not have it yet (withStaleSince); with a run, each change is recorded so undo can revert it. */
export async function markStale(root: string, pagePaths: readonly string[], date: string, run?: Run): Promise<MarkStaleResult> {
  const result: MarkStaleResult = { marked: [], alreadyStale: [], missing: [], unparseable: [], notUtf8: [], refused: [] };
  // Read and written as the sandbox does, only pages: never through a link, never elsewhere.
  const io = new ConfinedIo(root, { place: STALE_MARK_PLACE });
  for (const pagePath of [...new Set(pagePaths)].sort()) {
    if (!STALE_MARK_PLACE.allows(pagePath)) {
      result.refused.push(`${pagePath}: ${STALE_MARK_PLACE.what}`);
      continue;
    }
    try {
      await markOne(root, io, pagePath, date, run, result);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      result.refused.push(`${pagePath}: ${error.message}`);
    }
  }
  return result;
}

async function markOne(root: string, io: ConfinedIo, pagePath: string, date: string, run: Run | undefined, result: MarkStaleResult): Promise<void> {
  const target = path.join(root, ...pagePath.split('/'));
  const bytes = await io.readIfExists(target);
  if (bytes === undefined) {
    result.missing.push(pagePath);
    return;
  }
  if (invalidUtf8Offset(bytes) !== undefined) {
    result.notUtf8.push(pagePath);
    return;
  }
  const text = bytes.toString('utf8');
  const marking = withStaleSince(pagePath, text, date);
  if (marking === 'unparseable') {
    result.unparseable.push(pagePath);
    return;
  }
  if (marking === 'already-stale') {
    result.alreadyStale.push(pagePath);
    return;
  }
  await writeToolEdit(root, STALE_MARK_PLACE, pagePath, text, marking, run);
  result.marked.push(pagePath);
}
