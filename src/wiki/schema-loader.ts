import { ConfigError } from '../errors.js';
import type { Schema } from './contract.js';
import { contractSchema } from './contract-schema.js';
import { formatZodIssue } from '../util/zod.js';
import { readFrontmatter } from './frontmatter.js';
import { readSchemaText } from './schema-file.js';

export { SCHEMA_FILE } from './workspace.js';

/** Parse schema.md text into its contract (frontmatter `contract:`) and prose body. */
export function parseSchema(text: string): Schema {
  let data: unknown;
  let body: string;
  try {
    ({ data, body } = readFrontmatter(text));
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
  return parseSchema(await readSchemaText(root));
}
