import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * Round 3's flood, through the built CLI: a model that asks for 60 searches of 1 MB each in
 * one turn. The run answers every call, runs none of the megabyte searches, and its peak
 * resident memory stays under the README's 1 GB. (It peaked at 1.1 GB: the transcript cut
 * the response's 120 long strings to 512 K each and serialised 62, 31, 16… MB lines before
 * one fitted; the line's budget is now shared among its long strings.)
 */
const MB = 1024 * 1024;

let servers: FakeLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function rssWrapper(dir: string): Promise<{ cli: string; rssFile: string }> {
  const cli = path.join(dir, 'wiki-with-rss.mjs');
  const rssFile = path.join(dir, 'max-rss-kb');
  await writeFile(
    cli,
    [
      "import { writeFileSync } from 'node:fs';",
      `process.on('exit', () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));`,
      `await import(${JSON.stringify(pathToFileURL(CLI).href)});`,
      '',
    ].join('\n'),
  );
  return { cli, rssFile };
}

describe('a search flood in one turn (anthropic wire format)', () => {
  it('60 search_wiki calls of 1 MB each: all answered, none run, under 1 GB resident; a short search beside them is answered', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'wiki/concepts/okapi.md'), pageText('concept', 'okapi', { body: 'The okapi is a forest giraffe.' }));
    const flood = Array.from({ length: 60 }, (_, i) => ({ name: 'search_wiki', arguments: { query: `okapi ${i} ${'forest giraffe '.repeat(MB / 15)}` } }));
    const server = await startFakeLlmServer(
      [{ toolCalls: [{ name: 'search_wiki', arguments: { query: 'forest giraffe' } }, ...flood] }, { text: 'The okapi is a forest giraffe.' }],
      { chunkSize: 4 * MB },
    );
    servers.push(server);
    const { cli, rssFile } = await rssWrapper(await tempDir('wiki-flood-rss-'));
    const result = await runCli(['query', 'what is an okapi?', '--json'], { cwd: root, env: server.env('anthropic'), cli, timeoutMs: 240_000 });
    expect(result.stderr).not.toMatch(/unexpected failure|heap out of memory/i);
    expect(result.code).toBe(0);
    const answers = server.requests[1]?.toolResults ?? [];
    expect(answers).toHaveLength(61);
    expect(answers[0]?.content).toContain('concepts/okapi');
    for (const answer of answers.slice(1)) expect(answer.content).toMatch(/not run|over the .* allowed/);
    // The megabyte queries are not sent back to the model whole on the next turn.
    expect(Math.max(...server.requests.map((request) => JSON.stringify(request.body).length))).toBeLessThan(8 * MB);
    const maxRssKb = Number(await readFile(rssFile, 'utf8'));
    console.log(`search flood: max RSS ${Math.round(maxRssKb / 1024)} MB`);
    expect(maxRssKb * 1024).toBeLessThan(1024 * MB);
  }, 300_000);
});
