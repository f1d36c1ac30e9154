import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * One visibility rule for every reader (issue 28, items 4 and 5), through the built CLI and
 * both wire formats: Alice's model never sees Bob's scratch pages or `never` pages (also one
 * whose YAML does not parse) through list_directory, read_file, search_wiki or lint's review,
 * and `wiki graph` holds only what `wiki mcp` would serve (no private page either).
 */
const serve = fakeServers();
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
const HIDDEN = ['BOBSECRET', 'NEVERSECRET', 'BROKENSECRET'];
const HIDDEN_NAMES = ['bob-notes', 'hidden-page', 'broken-never'];

async function workspace(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/open.md'), '# Open\n\nOpen text.\n');
  const put = async (rel: string, text: string): Promise<void> => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  };
  await put('wiki/concepts/open-page.md', pageText('concept', 'open-page', { sources: ['raw/open.md'], body: 'Quasar notes anyone may read. [[no-such-page]]' }));
  await put('wiki/user/bob/concepts/bob-notes.md', pageText('concept', 'bob-notes', { sources: ['raw/open.md'], body: 'Quasar BOBSECRET draft. [[bob-missing]]' }));
  await put('wiki/concepts/hidden-page.md', pageText('concept', 'hidden-page', { sources: ['raw/open.md'], body: 'Quasar NEVERSECRET text. [[never-missing]]' }).replace('created:', 'usage_mode: never\ncreated:'));
  await put('wiki/concepts/broken-never.md', '---\ntitle: Broken never\nsummary: a stray: colon\nusage_mode: never\nsources: [raw/open.md]\n---\n\nQuasar BROKENSECRET text.\n');
  await put('wiki/concepts/private-page.md', pageText('concept', 'private-page', { sources: ['raw/open.md'], body: 'Quasar PRIVSECRET text.' }).replace('created:', 'visibility: private\ncreated:'));
  return root;
}

/** What the CLI told the model: prompts and tool results (not the scripted model's own calls). */
const HOSTILE_QUERY = 'quasar BOBSECRET NEVERSECRET BROKENSECRET';

/** What the tool sent the model, less the model's own search words, which a result may quote back ("No page is strongly about …"). */
function sent(requests: readonly RecordedRequest[]): string {
  return requests
    .map((request) => [request.system, request.lastUserText ?? '', ...request.toolResults.map((result) => result.content)].join('\n'))
    .join('\n')
    .replaceAll(HOSTILE_QUERY, '(the model\'s query)');
}

describe.each(['anthropic', 'openai'] as const)('who sees what (%s wire format)', (wire) => {
  it('the model\'s tools, search and prompt never show another user\'s scratch or a never page', async () => {
    const root = await workspace();
    const script: ScriptStep[] = [
      {
        toolCalls: [
          call('list_directory', { path: 'wiki/user' }),
          call('list_directory', { path: 'wiki/user/bob' }),
          call('read_file', { path: 'wiki/user/bob/concepts/bob-notes.md' }),
          call('read_file', { path: 'wiki/concepts/hidden-page.md' }),
          call('read_file', { path: 'wiki/concepts/broken-never.md' }),
          call('read_file', { path: 'wiki/concepts/absent-page.md' }),
          call('list_directory', { path: 'wiki/concepts' }),
          call('search_wiki', { query: HOSTILE_QUERY }),
          call('read_file', { path: 'wiki/concepts/open-page.md' }),
        ],
      },
      { text: 'Quasar notes anyone may read. [[open-page]]' },
    ];
    const server = await serve(script);
    const query = await runCli(['--user', 'alice', 'query', 'what about quasar?', '--json'], { cwd: root, env: server.env(wire) });
    expect(server.problems).toEqual([]);
    expect(query.code).toBe(0);
    const results = server.requests[1]?.toolResults ?? [];
    expect(results).toHaveLength(9);
    for (const word of HIDDEN) expect(sent(server.requests)).not.toContain(word);
    // Names appear only where the model's own call echoes them back as absent.
    const shown = [server.requests[0]?.system, server.requests[0]?.lastUserText, results[0]?.content, results[6]?.content, results[7]?.content].join('\n');
    for (const word of [...HIDDEN_NAMES, '"bob"']) expect(shown).not.toContain(word);
    // Hidden answers exactly as absent.
    expect(results[1]?.content).toMatch(/does not exist/);
    expect(results[2]?.content).toMatch(/does not exist/);
    expect(results[3]?.content.replace('hidden-page', 'X')).toBe(results[5]?.content.replace('absent-page', 'X'));
    // (Close names depend on the name asked for, as they would for any absent page.)
    expect(results[4]?.content).toMatch(/^(?:Error: )?wiki\/concepts\/broken-never\.md does not exist\. Use list_directory/);
    // Good work still works.
    expect(results[6]?.content).toContain('open-page.md');
    // A visible page is still found (which one ranks first is search's business; weak hits below the floor are left out).
    expect(results[7]?.content).toMatch(/open-page|private-page/);
    expect(results[8]?.content).toContain('Quasar notes anyone may read.');
    expect(query.stdout).not.toMatch(/SECRET/);
  });

  it('lint\'s model review is not shown another user\'s scratch or a never page', async () => {
    const root = await workspace();
    const server = await serve([{ text: 'FINDING missing-page wiki/concepts/open-page.md :: nothing else' }]);
    const lint = await runCli(['--user', 'alice', 'lint', '--json'], { cwd: root, env: server.env(wire) });
    expect(server.problems).toEqual([]);
    expect(lint.stdout).toContain('no-such-page');
    const body = sent(server.requests);
    expect(body).toContain('no-such-page');
    for (const word of [...HIDDEN, ...HIDDEN_NAMES, 'bob-missing', 'never-missing']) expect(body).not.toContain(word);
  });
});

describe('search and graph apply the same rule', () => {
  it('a never page whose YAML does not parse is not surfaced by wiki search', async () => {
    const root = await workspace();
    const search = JSON.parse((await runCli(['search', 'quasar BROKENSECRET', '--json'], { cwd: root })).stdout) as { results: Array<{ path: string }> };
    const paths = search.results.map((r) => r.path);
    expect(paths.some((p) => p === 'wiki/concepts/open-page.md' || p === 'wiki/concepts/private-page.md')).toBe(true);
    expect(paths).not.toContain('wiki/concepts/broken-never.md');
    expect(paths).not.toContain('wiki/concepts/hidden-page.md');
  });

  it.each([['json'], ['html'], ['dot']])('wiki graph (%s) holds no scratch, never or private page', async (format) => {
    const root = await workspace();
    const out = path.join(root, `graph.${format}`);
    const graph = await runCli(['--user', 'alice', 'graph', '--format', format, '--out', out], { cwd: root });
    expect(graph.code).toBe(0);
    const document = await readFile(out, 'utf8');
    expect(document).toContain('open-page');
    for (const word of [...HIDDEN, ...HIDDEN_NAMES, 'PRIVSECRET', 'private-page']) expect(document).not.toContain(word);
  });
});
