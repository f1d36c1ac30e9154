import { statSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { readTextIfExists, writeFileAtomic } from '../util/fs.js';
import { formatZodIssue } from '../util/zod.js';

/**
 * Read a machine-state JSON file: undefined when it does not exist, ConfigError when it
 * exists but is not what we wrote (every write is atomic, so that means a human edit).
 */
export async function readStateJson<T>(file: string, schema: z.ZodType<T>, label: string, fix: string): Promise<T | undefined> {
  const text = await readTextIfExists(file);
  return text === undefined ? undefined : parseStateJson(text, schema, label, fix);
}

/** A state file's text parsed and checked as `readStateJson` does. */
export function parseStateJson<T>(text: string, schema: z.ZodType<T>, label: string, fix: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${label}: not valid JSON (${(error as Error).message})`, fix);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`${label}: invalid ${issue ? formatZodIssue(issue) : 'content'}`, fix);
  }
  return result.data;
}

export async function writeStateJson(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A state file's stat as a string that changes whenever the file does: state files are only
 * replaced atomically (a new inode) or appended to (a new size), so an equal stamp means an
 * unchanged file and a cached parse can be reused. undefined: the file does not exist;
 * null: its stat failed otherwise (reading it then says why). Synchronous: a few
 * microseconds, where a trip through the thread pool costs a good part of a millisecond.
 */
export function stateFileStamp(file: string): string | undefined | null {
  try {
    const info = statSync(file, { throwIfNoEntry: false });
    return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : undefined;
  } catch {
    return null;
  }
}
