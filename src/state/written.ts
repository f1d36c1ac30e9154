import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { stateDir } from '../wiki/workspace.js';
import { readStateJson, writeStateJson } from './json-file.js';
import { checkRelativePath } from './paths.js';

/**
 * `.wiki/written.json`: the sha256 of what the tool last wrote to each path, which is how a
 * later run tells a human edit from its own work. Run history (history.ts) keeps each
 * path's entry from before a run so undo can put it back.
 */
const WRITTEN_FILE = 'written.json';

export interface WrittenEntry {
  sha256: string;
  runId: string;
  writtenAt: string;
}

export const writtenEntrySchema = z.object({ sha256: z.string(), runId: z.string(), writtenAt: z.string() });
const writtenSchema = z.object({ version: z.literal(1), files: z.record(z.string(), writtenEntrySchema) });
type WrittenFile = z.infer<typeof writtenSchema>;

/** What the tool last wrote to `relPath`, if it ever did. */
export async function lastWritten(root: string, relPath: string): Promise<WrittenEntry | undefined> {
  return (await loadWritten(root)).files[checkRelativePath(relPath)];
}

/** Set (or with null, remove) what written.json says the tool last wrote to `relPath`. */
export async function setWrittenEntry(root: string, relPath: string, entry: WrittenEntry | null): Promise<void> {
  const clean = checkRelativePath(relPath);
  const written = await loadWritten(root);
  if (entry) written.files[clean] = entry;
  else delete written.files[clean];
  const file = writtenPath(root);
  await writeStateJson(file, written);
  const stamp = await writtenStamp(file);
  if (stamp !== undefined) writtenCache.set(file, { stamp, value: written });
}

/** What written.json says the tool last wrote, by workspace-relative path. */
export async function writtenEntries(root: string): Promise<Readonly<Record<string, WrittenEntry>>> {
  return (await loadWritten(root)).files;
}

function writtenPath(root: string): string {
  return path.join(stateDir(root), WRITTEN_FILE);
}

/**
 * written.json as last read, by file, with the stat it had: a run reads it at every write
 * (and it grows with the wiki), so it is parsed again only when the file changed. The
 * stamp includes the inode, which every atomic rewrite replaces.
 */
const writtenCache = new Map<string, { stamp: string; value: WrittenFile }>();

async function writtenStamp(file: string): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : undefined;
}

async function loadWritten(root: string): Promise<WrittenFile> {
  const file = writtenPath(root);
  const stamp = await writtenStamp(file);
  const cached = writtenCache.get(file);
  let value: WrittenFile;
  if (stamp !== undefined && cached?.stamp === stamp) value = cached.value;
  else {
    value = (await readStateJson(file, writtenSchema, `.wiki/${WRITTEN_FILE}`, 'delete it (pages then count as not yet written by the tool)')) ?? { version: 1, files: {} };
    if (stamp !== undefined) writtenCache.set(file, { stamp, value });
    else writtenCache.delete(file);
  }
  // A copy: callers change it before saving it.
  return { version: 1, files: { ...value.files } };
}
