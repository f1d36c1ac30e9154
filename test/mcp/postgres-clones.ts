import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/postgres.js';

/** A page file's text from its frontmatter lines and body. */
export const page = (fields: string, body: string): string => `---\n${fields}\n---\n${body}\n`;

/**
 * A clone on the Postgres store with `pages` written and synced (`wiki store sync`): another
 * machine's checkout. Without `env`, on a fresh database it initialises; `env` names it.
 */
export async function postgresClone(pages: Record<string, string>, env?: Record<string, string>): Promise<{ root: string; env: Record<string, string> }> {
  const root = await initWorkspace();
  for (const [pagePath, content] of Object.entries(pages)) {
    await mkdir(path.dirname(path.join(root, pagePath)), { recursive: true });
    await writeFile(path.join(root, pagePath), content);
  }
  const config = JSON.parse(await readFile(path.join(root, 'wiki.config.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(path.join(root, 'wiki.config.json'), JSON.stringify({ ...config, store: { kind: 'postgres' } }, null, 2));
  const used = env ?? { WIKI_DATABASE_URL: await freshDatabase() };
  for (const args of env ? [['store', 'sync']] : [['store', 'init'], ['store', 'sync']]) {
    const result = await runCli(args, { cwd: root, env: used });
    if (result.code !== 0) throw new Error(`wiki ${args.join(' ')}: ${result.stderr}`);
  }
  return { root, env: used };
}
