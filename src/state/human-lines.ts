import path from 'node:path';
import { z } from 'zod';
import { stateDir } from '../wiki/workspace.js';
import { readStateJson, stateFileStamp, writeStateJson } from './json-file.js';

/**
 * `.wiki/human-lines.json`: per page, the lines a human wrote that a later tool write kept.
 * Once the tool rewrites a hand-edited page it counts as the tool's own writing, so without
 * this the owner's lines would be protected only until the first accepted rewrite.
 */
const FILE = 'human-lines.json';
const schema = z.object({ version: z.literal(1), pages: z.record(z.string(), z.array(z.string())) });
type HumanLinesFile = z.infer<typeof schema>;

function filePath(root: string): string {
  return path.join(stateDir(root), FILE);
}

/**
 * By file, as last read with its stat: a write checks it for every page it replaces, so it
 * is parsed again only when a stat shows it changed (the stamp includes the inode, which
 * every atomic rewrite replaces).
 */
const cache = new Map<string, { stamp: string; value: HumanLinesFile }>();

async function load(root: string): Promise<HumanLinesFile> {
  const file = filePath(root);
  const stamp = stateFileStamp(file);
  if (stamp === undefined) return { version: 1, pages: {} };
  const cached = cache.get(file);
  if (stamp !== null && cached?.stamp === stamp) return structuredClone(cached.value);
  const value = (await readStateJson(file, schema, `.wiki/${FILE}`, 'delete it (hand-written lines kept by earlier runs are then no longer protected)')) ?? { version: 1 as const, pages: {} };
  if (stamp !== null) cache.set(file, { stamp, value: structuredClone(value) });
  return value;
}

/** The human lines a page carries from earlier runs. */
export async function carriedHumanLines(root: string, relPath: string): Promise<string[]> {
  return (await load(root)).pages[relPath] ?? [];
}

/** Record the human lines a page now carries (none: forget the page). */
export async function setCarriedHumanLines(root: string, relPath: string, lines: readonly string[]): Promise<void> {
  const file = await load(root);
  if (lines.length === 0) {
    if (!Object.hasOwn(file.pages, relPath)) return;
    delete file.pages[relPath];
  } else {
    file.pages[relPath] = [...new Set(lines)];
  }
  await writeStateJson(filePath(root), file);
}
