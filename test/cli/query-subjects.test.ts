import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { firstUserText } from '../helpers/fake-llm-record.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { patchConfig } from './cron-fixtures.js';
import { TWO_SUBJECT_QUESTION, twoSubjectWorkspace } from './two-subjects-fixture.js';

/**
 * A question that names two subjects gets the best pages of each in its evidence pack (the
 * played runs' packs held one subject's pages only); a question on one subject keeps the
 * pack it had. A model's long keyword query finds the pages it names strong, and a query
 * about something the wiki lacks still is "not strongly about".
 */

interface QueryJson {
  state: string;
  evidence: { pages: Array<{ key: string; depth: number }> };
}

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const seedsOf = (report: QueryJson): string[] => report.evidence.pages.filter((page) => page.depth === 0).map((page) => page.key);

describe.each(['anthropic', 'openai'] as const)('wiki query: a question on two subjects (%s wire)', (api) => {
  it('seeds the pack with the best page of each subject, and the model reads both in its first request', async () => {
    const root = await twoSubjectWorkspace();
    // Two seeds: one search over the whole question fills both with Go pages.
    await patchConfig(root, { query: { seeds: 2 } });
    server = await startFakeLlmServer([{ text: 'Go picks versions by MVS [[go-workspace]]; let-else must diverge [[let-else]].' }]);
    const result = await runCli(['query', TWO_SUBJECT_QUESTION, '--json'], { cwd: root, env: server.env(api) });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as QueryJson;
    expect(seedsOf(report)).toEqual(['go-workspace', 'let-else']);
    const first = firstUserText(server.requests[0]!.body);
    expect(first).toMatch(/## \[\[go-workspace\]\] .*search match\)/);
    expect(first).toMatch(/## \[\[let-else\]\] .*search match\)/);
    expect(first).toContain('when the pattern does not match, the else block runs and must diverge');
  });
});

describe('wiki query: a question on one subject keeps its pack', () => {
  it.each([
    // The packs these questions had before seeds covered subjects.
    ['What must the else block of let-else do when the pattern does not match?', ['let-else', 'if-let', 'refutable-pattern', 'never-type']],
    ['How does minimal version selection pick a module version in a Go workspace?', ['minimal-version-selection', 'go-workspace', 'replace-directive']],
    ['Why is a refutable pattern not allowed in a plain let?', ['refutable-pattern', 'if-let', 'let-else', 'never-type']],
  ])('%s', async (question, pages) => {
    const root = await twoSubjectWorkspace();
    await patchConfig(root, { query: { seeds: 2 } });
    server = await startFakeLlmServer([{ text: 'An answer [[let-else]].' }]);
    const result = await runCli(['query', question, '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as QueryJson).evidence.pages.map((page) => page.key)).toEqual(pages);
  });
});

/** The model's query of the played run: many keywords, none of the titles half of it. */
const KEYWORDS = 'Go workspace module version selection go.work MVS replace';

describe('hit strength for a long keyword query', () => {
  it('wiki search: the pages the keywords name are strong; a query about something absent is not; a title query stays first and strong', async () => {
    const root = await twoSubjectWorkspace();
    const search = async (query: string) =>
      JSON.parse((await runCli(['--json', 'search', query], { cwd: root })).stdout) as { strong: boolean; results: Array<{ key: string; strength: string }> };
    const keywords = await search(KEYWORDS);
    expect(keywords.strong).toBe(true);
    const strong = keywords.results.filter((hit) => hit.strength === 'strong').map((hit) => hit.key);
    expect(strong).toEqual(expect.arrayContaining(['go-workspace', 'minimal-version-selection']));
    expect(strong).not.toContain('let-else');
    // The wiki's Rust pages share a word with it, and nothing more.
    const absent = await search('Rust borrow checker lifetime ownership rules');
    expect(absent.results.length).toBeGreaterThan(0);
    expect(absent.strong).toBe(false);
    const text = await runCli(['search', 'Rust borrow checker lifetime ownership rules'], { cwd: root });
    expect(text.stdout).toMatch(/^No page is strongly about/);
    const title = await search('let-else statement');
    expect(title.results[0]).toMatchObject({ key: 'let-else', strength: 'strong' });
  });
});

describe.each(['anthropic', 'openai'] as const)('search_wiki for a long keyword query (%s wire)', (api) => {
  it('tells the model the pages it names are strong, not "no page is strongly about"', async () => {
    const root = await twoSubjectWorkspace();
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'search_wiki', arguments: { query: KEYWORDS } }] },
      { text: 'MVS over the workspace [[go-workspace]].' },
    ]);
    const result = await runCli(['query', 'how does a Go workspace pick module versions?', '--json'], { cwd: root, env: server.env(api) });
    expect(result.code, result.stderr).toBe(0);
    const hits = server.requests[1]?.toolResults[0]?.content ?? '';
    expect(hits).not.toMatch(/No page is strongly about/);
    expect(hits).toMatch(/^concepts\/go-workspace \(strong, /m);
    expect(hits).toMatch(/^concepts\/minimal-version-selection \(strong, /m);
  });
});
