import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { SCHEMA_FILE } from './workspace.js';

/** schema.md's text, read apart from its parsing (schema-loader.ts), which loads YAML and the schema library. */
export async function readSchemaText(root: string): Promise<string> {
  try {
    return await readFile(path.join(root, SCHEMA_FILE), 'utf8');
  } catch {
    throw new ConfigError(`no schema.md in ${root}`, 'run `wiki init` to create a workspace');
  }
}
