import { stat } from 'node:fs/promises';
import path from 'node:path';
import { entryStamp, hashFile, type Manifest } from '../../state/manifest.js';
import { unchangedSince } from '../../util/file-stamp.js';

/**
 * A source whose file is not the version its ingest record names: what `wiki lint` reports,
 * what `wiki lint --fix` follows without a model, and what `wiki status` says of it.
 */
export interface SourceChange {
  source: string;
  /** The version last ingested. */
  ingested: string;
  /** The version the pages' citations number: the ingested one, or a later one `wiki lint --fix` followed. */
  numbered: string;
  /** The version in raw/ now. */
  current: string;
}

/** Whether the citations still number an earlier version than the one in raw/ (they have to be moved). */
export const citationsBehind = (change: SourceChange): boolean => change.current !== change.numbered;

/**
 * The recorded sources still in raw/ whose content is not the ingested version, or whose
 * citations number another version than the one there now. Hashes only what the stamp of
 * the ingest cannot vouch for: on a large raw/ most sources are unchanged.
 */
export async function sourceChanges(root: string, manifest: Manifest): Promise<SourceChange[]> {
  const changes: SourceChange[] = [];
  for (const [source, entry] of Object.entries(manifest.sources)) {
    const absolute = path.join(root, source);
    let current: string;
    try {
      const info = await stat(absolute);
      if (!info.isFile()) continue;
      current = unchangedSince(entryStamp(entry), info) ? entry.sha256 : await hashFile(absolute);
    } catch {
      // A deleted source is the ingest's (and `wiki rm`'s) to deal with.
      continue;
    }
    const numbered = entry.followed ?? entry.sha256;
    if (current === entry.sha256 && numbered === current) continue;
    changes.push({ source, ingested: entry.sha256, numbered, current });
  }
  return changes.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}
