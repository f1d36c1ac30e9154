import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { firstUserText } from '../helpers/fake-llm-record.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pageText, patchConfig, simpleIngest } from './cron-fixtures.js';

const ALWAYS_MARK = 'ALWAYS-MARK-7731 every answer names the team glossary';

const PAGES: Record<string, string> = {
  'raw/paper.md': '# A paper\n\nAbout attention and transformers.\n',
  'wiki/concepts/team-rules.md': pageText('concept', 'team-rules', {
    summary: 'The rules every page of this wiki follows',
    body: ALWAYS_MARK,
  }).replace('type: concept', 'type: concept\nusage_mode: always'),
  // A never page: hidden everywhere, yet linted (its summary is missing) and a valid link target.
  'wiki/concepts/hidden-draft.md': '---\ntitle: Hidden draft\ntype: concept\nusage_mode: never\n---\n\nThe quokka survey draft.\n',
  'wiki/concepts/attention.md': pageText('concept', 'attention', { body: 'Attention weighs tokens; see [[hidden-draft]] and the quokka notes.' }),
  'wiki/user/alice/concepts/alice-idea.md': pageText('concept', 'alice-idea', { sources: ['raw/paper.md'], body: 'Alice thinks the platypus matters; see [[attention]].' }),
  'wiki/user/alice/concepts/attention.md': pageText('concept', 'attention', { body: 'Alice scratch: attention as platypus routing.' }),
  'wiki/user/bob/concepts/bob-broken.md': pageText('concept', 'bob-broken', { body: 'Links [[nowhere-at-all]].' }),
};

async function accessWorkspace(): Promise<string> {
  const root = await freshWorkspace();
  for (const [file, text] of Object.entries(PAGES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface SearchJson {
  found: boolean;
  query: string;
  results: Array<{ key: string; path: string }>;
  warnings: Array<{ lane: string; endpoint?: string; message: string }>;
}

describe('usage_mode through the CLI and the model server', () => {
  it('puts an always page in every request body of ingest, query and lint, and never lists or finds a never page', async () => {
    const root = await accessWorkspace();
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'search_wiki', arguments: { query: 'quokka survey draft', limit: 10 } }] },
      ...simpleIngest('paper'),
      { text: 'Attention weighs tokens [[attention]].' },
      { text: 'FINDING style wiki/concepts/attention.md :: terse' },
    ]);
    const env = server.env('anthropic');
    const ingest = await runCli(['ingest', 'raw/paper.md', '--json'], { cwd: root, env });
    expect(ingest.code, ingest.stderr).toBe(0);
    const query = await runCli(['query', 'what is attention?', '--json'], { cwd: root, env });
    expect(query.code, query.stderr).toBe(0);
    const lint = await runCli(['lint', '--json'], { cwd: root, env });
    expect([0, 1]).toContain(lint.code);
    expect(server.problems).toEqual([]);
    // One system prompt for every command (a cached prefix); what each run is comes in its first message.
    const systems = new Set(server.requests.map((request) => request.system));
    expect(systems.size).toBe(1);
    const runs = new Set(server.requests.map((request) => /^# This run\n\n(You are [^.]*)/.exec(firstUserText(request.body))?.[1]));
    expect(runs.size).toBeGreaterThanOrEqual(3);
    for (const request of server.requests) {
      const body = JSON.stringify(request.body);
      expect(body).toContain('ALWAYS-MARK-7731');
      expect(request.system).not.toMatch(/hidden-draft/);
      expect(request.system).not.toMatch(/wiki\/user\//);
    }
    // The model's own search leaves the never page out.
    expect(server.requests[1]?.toolResults[0]?.content).not.toContain('hidden-draft');
    // Lint still checks the never page, and a link to it is not broken.
    const report = JSON.parse(lint.stdout) as { findings: Array<{ rule: string; path: string; message: string }> };
    const findings = report.findings ?? [];
    expect(findings.some((f) => f.path === 'wiki/concepts/hidden-draft.md' && f.rule === 'required-field')).toBe(true);
    expect(findings.some((f) => f.rule === 'broken-link' && f.message.includes('hidden-draft'))).toBe(false);
  });

  it('wiki search never shows a never page, and lint rejects an unknown usage_mode or visibility', async () => {
    const root = await accessWorkspace();
    const search = await runCli(['search', 'quokka survey draft', '--json'], { cwd: root });
    expect(search.code, search.stderr).toBe(0);
    const answer = JSON.parse(search.stdout) as SearchJson;
    expect(answer.results.map((r) => r.key)).not.toContain('hidden-draft');
    await writeFile(
      path.join(root, 'wiki/concepts/typo.md'),
      pageText('concept', 'typo').replace('type: concept', 'type: concept\nusage_mode: nevr\nvisibility: secret'),
    );
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const findings = (JSON.parse(lint.stdout) as { findings: Array<{ rule: string; path: string; message: string }> }).findings;
    const access = findings.filter((f) => f.rule === 'access-field' && f.path === 'wiki/concepts/typo.md').map((f) => f.message);
    expect(access).toEqual([expect.stringMatching(/usage_mode "nevr"/), expect.stringMatching(/visibility "secret".*public, internal, private/)]);
  });
});

describe('wiki search names no hidden page in its link lists', () => {
  type Linked = Omit<SearchJson, 'results'> & { results: Array<{ key: string; path: string; links: string[]; backlinks: string[] }> };
  it.each([
    { viewer: 'the team', args: [], hidden: ['hidden-draft', 'alice-idea', 'bob-broken'], shown: [] as string[], human: /links: team-rules/ },
    { viewer: 'alice', args: ['--user', 'alice'], hidden: ['hidden-draft', 'bob-broken'], shown: ['alice-idea'], human: /linked from: alice-idea/ },
    { viewer: 'bob', args: ['--user', 'bob'], hidden: ['hidden-draft', 'alice-idea'], shown: [] as string[], human: /links: team-rules/ },
  ])('for $viewer: no never page and no other user\'s page in links or backlinks, human or --json', async ({ args, hidden, shown, human: lists }) => {
    const root = await accessWorkspace();
    await patchConfig(root, { search: { embedder: { kind: 'none' } } });
    // The team's attention links to the never page and to a page all may see; Alice's scratch page links to it.
    await writeFile(
      path.join(root, 'wiki/concepts/attention.md'),
      pageText('concept', 'attention', { body: 'Attention weighs tokens; see [[hidden-draft]], [[team-rules]] and the quokka notes.' }),
    );
    const json = await runCli([...args, 'search', 'attention quokka platypus', '--limit', '20', '--json'], { cwd: root });
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout) as Linked;
    const attention = answer.results.find((result) => result.key === 'attention');
    expect(attention, json.stdout).toBeDefined();
    const named = answer.results.flatMap((result) => [...result.links, ...result.backlinks]);
    for (const key of hidden) expect(named, key).not.toContain(key);
    for (const key of shown) expect(attention?.backlinks).toContain(key);
    const human = await runCli([...args, 'search', 'attention quokka platypus', '--limit', '20'], { cwd: root });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(lists);
    for (const key of hidden) expect(human.stdout, key).not.toContain(key);
  });
});

describe('per-user scratch scope through the CLI', () => {
  it("shadows a team page for its user only, hides other users' scopes, and lints each scope", async () => {
    const root = await accessWorkspace();
    const search = async (args: string[], env: Record<string, string> = {}): Promise<SearchJson> => {
      const result = await runCli([...args, '--json'], { cwd: root, env });
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as SearchJson;
    };
    const asAlice = await search(['--user', 'alice', 'search', 'platypus routing attention']);
    expect(asAlice.results.map((r) => r.path)).toContain('wiki/user/alice/concepts/attention.md');
    expect(asAlice.results.map((r) => r.path)).not.toContain('wiki/concepts/attention.md');
    const viaEnv = await search(['search', 'platypus'], { WIKI_USER: 'alice' });
    expect(viaEnv.results.map((r) => r.key)).toContain('alice-idea');
    for (const other of [await search(['search', 'platypus routing attention']), await search(['search', 'platypus'], { WIKI_USER: 'bob' })]) {
      expect(other.results.map((r) => r.path).filter((p) => p.startsWith('wiki/user/alice/'))).toEqual([]);
    }
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const findings = (JSON.parse(lint.stdout) as { findings: Array<{ rule: string; path: string }> }).findings;
    // Alice's attention shadows the team's: not a duplicate key. Bob's broken link is still found.
    expect(findings.filter((f) => f.rule === 'duplicate-key')).toEqual([]);
    expect(findings.some((f) => f.rule === 'broken-link' && f.path === 'wiki/user/bob/concepts/bob-broken.md')).toBe(true);
  });

  it('wiki promote moves a valid scratch page into the team folders and refuses an invalid one, moving nothing', async () => {
    const root = await accessWorkspace();
    const promoted = await runCli(['--user', 'alice', 'promote', 'alice-idea', '--json'], { cwd: root });
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(JSON.parse(promoted.stdout)).toMatchObject({ from: 'wiki/user/alice/concepts/alice-idea.md', to: 'wiki/concepts/alice-idea.md' });
    expect(existsSync(path.join(root, 'wiki/user/alice/concepts/alice-idea.md'))).toBe(false);
    expect(await readFile(path.join(root, 'wiki/concepts/alice-idea.md'), 'utf8')).toContain('platypus');
    const found = JSON.parse((await runCli(['search', 'platypus matters', '--json'], { cwd: root })).stdout) as SearchJson;
    expect(found.results.map((r) => r.key)).toContain('alice-idea');

    const refused = await runCli(['promote', 'bob-broken'], { cwd: root, env: { WIKI_USER: 'bob' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cannot become wiki\/concepts\/bob-broken\.md.*nowhere-at-all/);
    expect(existsSync(path.join(root, 'wiki/user/bob/concepts/bob-broken.md'))).toBe(true);
    expect(existsSync(path.join(root, 'wiki/concepts/bob-broken.md'))).toBe(false);
    const nobody = await runCli(['promote', 'alice-idea'], { cwd: root });
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toMatch(/--user NAME or set WIKI_USER/);
  });
});

describe('wiki promote is a run that wiki undo reverts', () => {
  it('keeps the index and the log like any run: the promoted page is indexed, the undo unindexes it', async () => {
    const root = await accessWorkspace();
    const promoted = await runCli(['--user', 'alice', 'promote', 'alice-idea', '--json'], { cwd: root });
    expect(promoted.code, promoted.stderr).toBe(0);
    const { runId } = JSON.parse(promoted.stdout) as { runId: string };
    expect(await readFile(path.join(root, 'wiki/index.md'), 'utf8')).toContain('[[alice-idea]]');
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toMatch(new RegExp(`\\] promote \\| alice-idea .*\\n- run: ${runId}`));
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string; path: string }> };
    expect(lint.findings.filter((finding) => finding.path === 'wiki/concepts/alice-idea.md' && finding.rule === 'unindexed')).toEqual([]);
    expect((await runCli(['undo', '--yes'], { cwd: root })).code).toBe(0);
    expect(await readFile(path.join(root, 'wiki/index.md'), 'utf8')).not.toContain('[[alice-idea]]');
  });

  it.each([
    { case: 'a new team page', before: undefined },
    { case: 'a team page it replaced', before: pageText('concept', 'alice-idea', { body: 'The team version of the idea.' }) },
  ])('undo after promoting to $case puts both files back as they were', async ({ before }) => {
    const root = await accessWorkspace();
    const scratchPath = 'wiki/user/alice/concepts/alice-idea.md';
    const teamPath = 'wiki/concepts/alice-idea.md';
    if (before !== undefined) await writeFile(path.join(root, teamPath), before);
    const scratch = await readFile(path.join(root, scratchPath), 'utf8');
    const promoted = await runCli(['--user', 'alice', 'promote', 'alice-idea', '--json'], { cwd: root });
    expect(promoted.code, promoted.stderr).toBe(0);
    const { runId } = JSON.parse(promoted.stdout) as { runId: string };
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toContain(`- run: ${runId}`);
    const undone = await runCli(['undo', '--yes', '--json'], { cwd: root });
    expect(undone.code, undone.stderr).toBe(0);
    expect(JSON.parse(undone.stdout)).toMatchObject({ runId, op: 'promote', outcome: 'applied' });
    expect(await readFile(path.join(root, scratchPath), 'utf8')).toBe(scratch);
    if (before === undefined) expect(existsSync(path.join(root, teamPath))).toBe(false);
    else expect(await readFile(path.join(root, teamPath), 'utf8')).toBe(before);
    const lint = JSON.parse((await runCli(['lint', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string }> };
    expect(lint.findings.filter((finding) => finding.rule === 'log-entry')).toEqual([]);
  });
});

describe('wiki search never answers with a silent absence', () => {
  it('not configured: no workspace is an error saying what to set up', async () => {
    const empty = await tempDir();
    const result = await runCli(['search', 'attention', '--json'], { cwd: empty });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/wiki init|schema\.md/);
  });

  it('one lane failing: dropped with a warning naming the lane and its endpoint, in human output and --json', async () => {
    const root = await accessWorkspace();
    await patchConfig(root, { search: { embedder: { kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } } });
    const json = await runCli(['search', 'attention', '--json'], { cwd: root });
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout) as SearchJson;
    expect(answer.found).toBe(true);
    expect(answer.warnings).toEqual([expect.objectContaining({ lane: 'semantic', endpoint: expect.stringContaining('http://127.0.0.1:9/v1') })]);
    const human = await runCli(['search', 'attention'], { cwd: root });
    expect(human.stdout + human.stderr).toMatch(/warning: the semantic lane \(.*127\.0\.0\.1:9.*\) failed/);
  });

  it('configured but failing: the only lane that could answer down is an error naming it, never an empty list', async () => {
    const root = await accessWorkspace();
    await patchConfig(root, {
      search: { weights: { lexical: 0, token: 0 }, embedder: { kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } },
    });
    const result = await runCli(['search', 'attention', '--json'], { cwd: root });
    expect(result.code).toBe(2);
    const error = (JSON.parse(result.stdout) as { error: { message: string } }).error;
    expect(error.message).toMatch(/no lane could answer.*semantic failed/);
    expect(result.stdout).not.toMatch(/"results"/);
  });

  it('nothing matched: found false with the query echoed', async () => {
    const root = await accessWorkspace();
    await patchConfig(root, { search: { embedder: { kind: 'none' } } });
    const json = JSON.parse((await runCli(['search', 'xylophonic', '--json'], { cwd: root })).stdout) as SearchJson;
    expect(json).toMatchObject({ found: false, query: 'xylophonic', results: [], warnings: [] });
    const human = await runCli(['search', 'xylophonic'], { cwd: root });
    expect(human.stdout).toMatch(/No pages match “xylophonic” \(found: false\)/);
  });
});

describe('wiki query never answers with a silent absence', () => {
  it('not configured: no workspace is an error saying what to set up', async () => {
    const result = await runCli(['query', 'what is attention?'], { cwd: await tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/wiki init/);
  });

  it('one lane failing: the report warns, naming the lane and its endpoint; nothing cited: found false with the question', async () => {
    const root = await accessWorkspace();
    await patchConfig(root, { search: { embedder: { kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } } });
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'search_wiki', arguments: { query: 'attention' } }] },
      { text: 'The wiki says nothing about it.' },
    ]);
    const result = await runCli(['query', 'what is attention?', '--json'], { cwd: root, env: server.env('openai') });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { found: boolean; question: string; warnings: SearchJson['warnings'] };
    expect(report).toMatchObject({ found: false, question: 'what is attention?' });
    expect(report.warnings).toEqual([expect.objectContaining({ lane: 'semantic', endpoint: expect.stringContaining('127.0.0.1:9') })]);
    expect(server.requests[1]?.toolResults[0]?.isError).toBe(false);
  });

  it('configured but failing: the model\'s search is an error naming the lanes, never an empty list', async () => {
    const root = await accessWorkspace();
    await patchConfig(root, { search: { weights: { lexical: 0, token: 0 }, embedder: { kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } } });
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'search_wiki', arguments: { query: 'attention' } }] },
      { text: 'Search is down; see [[attention]].' },
    ]);
    const result = await runCli(['query', 'what is attention?', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    // No lane could answer the retrieval either: the model is told so, not handed "nothing in the wiki".
    expect(server.requests[0]?.lastUserText).toMatch(/The wiki's search failed before you were called \(search failed: no lane could answer/);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'answered', evidence: { pages: [], searchFailed: expect.stringMatching(/no lane could answer/) } });
    const searched = server.requests[1]?.toolResults[0];
    expect(searched?.isError).toBe(true);
    expect(searched?.content).toMatch(/no lane could answer.*semantic failed/);
    expect(JSON.parse(result.stdout)).toMatchObject({ found: true, cited: ['attention'] });
  });
});
