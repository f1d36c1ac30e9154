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
  if (text === undefined) return undefined;
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
