/**
 * The writer of the store bench (scripts/bench-store-serve.ts), a process of its own: it
 * opens the Postgres store on its checkout as `wiki ingest` does, then for each line `N` on
 * stdin writes page `bench-new-N` (the file, then the index: a tool's write) and answers
 * `written N`. Usage: node dist/scripts/bench-store-writer.js ROOT (WIKI_DATABASE_URL set).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { configSchema } from '../src/config/schema.js';
import { openSearchIndex } from '../src/store/open-index.js';
import { serialisePage } from '../src/wiki/page.js';
import { loadSchema } from '../src/wiki/schema-loader.js';

/** The page the writer writes for `n`: its path and the word only it holds. */
export function benchPage(n: number): { key: string; path: string; word: string } {
  const key = `bench-new-${n}`;
  return { key, path: `wiki/concepts/${key}.md`, word: `zqx${n}vel` };
}

async function main(root: string): Promise<void> {
  const schema = await loadSchema(root);
  const index = await openSearchIndex(root, schema, configSchema.parse({ store: { kind: 'postgres' } }), { env: process.env, rescanAfterMs: Number.MAX_SAFE_INTEGER });
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const n = Number(line.trim());
    if (!Number.isInteger(n)) continue;
    const page = benchPage(n);
    const content = serialisePage({ title: `New ${page.word}`, summary: `A page about ${page.word}`, type: 'concept' }, `\nThe ${page.word} is new.\n`);
    await mkdir(path.dirname(path.join(root, page.path)), { recursive: true });
    await writeFile(path.join(root, page.path), content);
    await index.upsertPage(page.path, content);
    process.stdout.write(`written ${n}\n`);
  }
  await index.close();
}

if (process.argv[1]?.endsWith('bench-store-writer.js')) {
  main(process.argv[2] ?? '.').catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
