import path from 'node:path';
import { z } from 'zod';
import { stateDir } from '../wiki/workspace.js';
import { readStateJson, stateFileStamp, writeStateJson } from './json-file.js';

/**
 * `.wiki/human-lines.json`: per page, the lines a human wrote that a later tool write kept,
 * and (`fields`) the frontmatter values they set. Once the tool rewrites a hand-edited page
 * it counts as the tool's own writing, so without this the owner's lines and fields would be
 * protected only until the first accepted rewrite.
 */
const FILE = 'human-lines.json';
const schema = z.object({
  version: z.literal(1),
  pages: z.record(z.string(), z.array(z.string())),
  fields: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
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

/** The human frontmatter values a page carries from earlier runs, by field. */
export async function carriedHumanFields(root: string, relPath: string): Promise<Record<string, unknown>> {
  return (await load(root)).fields?.[relPath] ?? {};
}

/** Record the human lines and fields a page now carries (none: forget the page). */
export async function setCarriedHumanLines(root: string, relPath: string, lines: readonly string[], fields: Record<string, unknown> = {}): Promise<void> {
  const file = await load(root);
  const had = Object.hasOwn(file.pages, relPath) || Object.hasOwn(file.fields ?? {}, relPath);
  if (lines.length === 0) delete file.pages[relPath];
  else file.pages[relPath] = [...new Set(lines)];
  const pageFields = { ...(file.fields ?? {}) };
  if (Object.keys(fields).length === 0) delete pageFields[relPath];
  else pageFields[relPath] = fields;
  if (Object.keys(pageFields).length > 0) file.fields = pageFields;
  else delete file.fields;
  if (!had && lines.length === 0 && Object.keys(fields).length === 0) return;
  await writeStateJson(filePath(root), file);
}
