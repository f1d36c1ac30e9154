import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { contractSchema, type Schema } from './contract.js';
import { formatZodIssue } from '../util/zod.js';
import { readSchemaFrontmatter } from './schema-frontmatter.js';
import { SCHEMA_FILE } from './workspace.js';

export { SCHEMA_FILE } from './workspace.js';

/** Parse schema.md text into its contract (frontmatter `contract:`) and prose body. */
export function parseSchema(text: string): Schema {
  let data: unknown;
  let body: string;
  try {
    ({ data, body } = readSchemaFrontmatter(text));
  } catch (error) {
    throw new ConfigError(
      `schema.md: frontmatter is not valid YAML (${(error as Error).message.split('\n')[0]})`,
      'fix the YAML between the --- lines at the top of schema.md',
    );
  }
  if (typeof data !== 'object' || data === null || !('contract' in data)) {
    throw new ConfigError(
      'schema.md: frontmatter has no `contract` field',
      'add the page contract (see templates/schema.md, or run `wiki init --force` in a scratch folder to get one)',
    );
  }
  const result = contractSchema.safeParse(data.contract);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(
      `schema.md: invalid contract field ${issue ? formatZodIssue(issue, 'contract') : 'contract'}`,
      'fix that field in the frontmatter of schema.md',
    );
  }
  return { contract: result.data, body, text };
}

export async function loadSchema(root: string): Promise<Schema> {
  const file = path.join(root, SCHEMA_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ConfigError(`no schema.md in ${root}`, 'run `wiki init` to create a workspace');
  }
  return parseSchema(text);
}
