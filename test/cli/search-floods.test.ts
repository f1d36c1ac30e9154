import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pageText, patchConfig } from './cron-fixtures.js';

/**
 * A model (or a source steering it) that floods search_wiki: many searches in one turn, or
 * queries of megabytes. Each search costs work in proportion to its words, so both are
 * capped before any work is done (limits.searchesPerTurn, limits.searchQueryChars), with
 * errors that say what to do; ordinary searches are answered as before. Low limits keep it small.
 */
const serve = fakeServers();

async function workspaceWithPage(): Promise<string> {
  const root = await freshWorkspace();
  // A page the question matches, so the query reaches the model.
  await writeFile(path.join(root, 'wiki/concepts/okapi.md'), pageText('concept', 'okapi', { body: 'The okapi is a forest giraffe.' }));
  await patchConfig(root, { limits: { searchesPerTurn: 3, searchQueryChars: 200 } });
  return root;
}

describe.each(['anthropic', 'openai'] as const)('search floods (%s)', (api) => {
  it('searches past limits.searchesPerTurn in one turn are answered, not run; the first ones are', async () => {
    const root = await workspaceWithPage();
    const searches = Array.from({ length: 10 }, () => ({ name: 'search_wiki', arguments: { query: 'okapi' } }));
    const server = await serve((request) => (request.toolResults.length > 0 ? { text: 'The okapi is a forest giraffe.' } : { toolCalls: searches }));
    const result = await runCli(['query', 'what is an okapi?'], { cwd: root, env: server.env(api) });
    expect(result.code).toBe(0);
    const answers = server.requests[1]?.toolResults ?? [];
    expect(answers).toHaveLength(10);
    for (const answer of answers.slice(0, 3)) expect(answer.content).toContain('okapi');
    for (const answer of answers.slice(3)) {
      expect(answer.content).toMatch(/^(Error: )?search_wiki was not run: this turn asked for 10 searches, and at most 3 run per turn \(limits\.searchesPerTurn in wiki\.config\.json\)/);
    }
  });

  it('a query past limits.searchQueryChars is refused before any work; a short one beside it is answered', async () => {
    const root = await workspaceWithPage();
    const flood = 'okapi '.repeat(20_000);
    const server = await serve((request) =>
      request.toolResults.length > 0
        ? { text: 'The okapi is a forest giraffe.' }
        : { toolCalls: [{ name: 'search_wiki', arguments: { query: flood } }, { name: 'search_wiki', arguments: { query: 'forest giraffe' } }] },
    );
    const result = await runCli(['query', 'what is an okapi?'], { cwd: root, env: server.env(api) });
    expect(result.code).toBe(0);
    const [refused, answered] = server.requests[1]?.toolResults ?? [];
    expect(refused?.content).toContain(`query is ${flood.length} characters, over the 200 allowed (limits.searchQueryChars in wiki.config.json); search for a few words or a short question`);
    expect(answered?.content).toContain('concepts/okapi');
  });
});
