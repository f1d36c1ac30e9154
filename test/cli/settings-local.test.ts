import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * Local servers and settings: a keyless OpenAI-compatible server is told apart (the model
 * asked for, no list price), a key in the workspace's .env is read (and never readable by
 * the model), a command that calls no model ignores a bad WIKI_PROVIDER, nested config keys
 * answer, and the model's lint findings about pages that do not exist are dropped.
 */

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function workspaceWithPage(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is the first letter.\n');
  await writeFile(path.join(root, 'wiki/concepts/alpha.md'), pageText('concept', 'alpha', { sources: ['raw/alpha.md'], body: 'Alpha is the first letter of the alphabet.' }));
  return root;
}

describe('a local OpenAI-compatible server with no model set', () => {
  it('says which model is asked for and that the cost is unknown; no list price is used', async () => {
    const root = await workspaceWithPage();
    server = await startFakeLlmServer([{ text: 'The first letter [[alpha]].', usage: { inputTokens: 1000, outputTokens: 100 } }]);
    const env = { ...server.env('openai'), OPENAI_API_KEY: undefined };
    const result = await runCli(['query', 'what is alpha?', '--json'], { cwd: root, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/asking for model "gpt-5\.5" \(no model is set.*wiki config set model NAME.*\); cost: unknown \(local server\)/);
    expect((JSON.parse(result.stdout) as { cost?: number }).cost).toBeUndefined();
    const config = await runCli(['config'], { cwd: root, env });
    expect(config.stdout).toMatch(/cost: unknown \(local server\)/);
  });

  it('the end-of-run summary says cost: unknown (local server), after an ingest and after a query --explain', async () => {
    const root = await workspaceWithPage();
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta is the second letter.\n');
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/beta.md', content: pageText('source', 'beta') } }] },
      { text: 'Ingested raw/beta.md.' },
      { text: 'The first letter [[alpha]].' },
    ]);
    const env = { ...server.env('openai'), OPENAI_API_KEY: undefined };
    const ingest = await runCli(['ingest', 'raw/beta.md'], { cwd: root, env });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.stdout).toMatch(/Cost: +unknown \(local server\)/);
    expect(ingest.stdout).not.toMatch(/unknown for|no price on file/);
    const query = await runCli(['query', 'what is alpha?', '--explain'], { cwd: root, env });
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toMatch(/Cost: +unknown \(local server\)/);
    expect(query.stdout).not.toMatch(/unknown for|no price on file/);
  });

  it('on a loopback address with a key set it is a local server all the same: no list price', async () => {
    const root = await workspaceWithPage();
    server = await startFakeLlmServer([{ text: 'The first letter [[alpha]].', usage: { inputTokens: 1000, outputTokens: 100 } }]);
    const env = { ...server.env('openai'), OPENAI_API_KEY: 'ollama' };
    const result = await runCli(['query', 'what is alpha?', '--explain', '--model', 'gpt-4o'], { cwd: root, env });
    expect(result.code, result.stderr).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/local server at http:\/\/127\.0\.0\.1:\d+\/v1: asking for model "gpt-4o"; cost: unknown \(local server\)/);
    expect(result.stdout).toMatch(/Cost: +unknown \(local server\)/);
    expect(result.stdout).not.toMatch(/~\$/);
  });

  it('a public host with a key is a hosted endpoint: nothing of the kind is said', async () => {
    const root = await workspaceWithPage();
    for (const baseUrl of ['https://llm.example.com/v1', 'http://127.0.0.1.example.com/v1', 'http://localhost.example.com/v1']) {
      const config = await runCli(['config'], { cwd: root, env: { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined } });
      expect(config.code, config.stderr).toBe(0);
      expect(config.stdout, baseUrl).not.toMatch(/local server at/);
    }
  });
});

describe('an API key in the workspace .env', () => {
  it('is read (the environment wins), shown by wiki config, and never readable by the model', async () => {
    const root = await workspaceWithPage();
    await writeFile(path.join(root, '.env'), 'ANTHROPIC_API_KEY=sk-dotenv-SECRET-4242\n');
    server = await startFakeLlmServer([{ toolCalls: [{ name: 'read_file', arguments: { path: '.env' } }] }, { text: 'The first letter [[alpha]].' }]);
    const env = { ...server.env('anthropic'), ANTHROPIC_API_KEY: undefined };
    const result = await runCli(['query', 'what is alpha?'], { cwd: root, env });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests[0]?.headers.authorization ?? server.requests[0]?.headers['x-api-key']).toMatch(/sk-dotenv-SECRET-4242$/);
    // The model asked for .env: refused, and the key is in no request body.
    expect(server.requests[1]?.toolResults[0]?.content).toMatch(/secrets|never readable|not found|no such/i);
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain('SECRET-4242');
    const config = await runCli(['config'], { cwd: root, env });
    expect(config.stdout).toContain("ANTHROPIC_API_KEY: set (in the workspace's .env)");
    expect(config.stdout).not.toContain('SECRET-4242');
    const shell = await runCli(['config'], { cwd: root, env: { ANTHROPIC_API_KEY: 'from-shell' } });
    expect(shell.stdout).toMatch(/^ANTHROPIC_API_KEY: set$/m);
  });
});

describe('settings a command does not need', () => {
  it('WIKI_PROVIDER=foo does not stop `wiki search` (it calls no model), but still stops `wiki query`', async () => {
    const root = await workspaceWithPage();
    const search = await runCli(['search', 'alpha'], { cwd: root, env: { WIKI_PROVIDER: 'foo' } });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('alpha');
    const query = await runCli(['query', 'what is alpha?'], { cwd: root, env: { WIKI_PROVIDER: 'foo' } });
    expect(query.code).toBe(2);
    expect(query.stderr).toMatch(/WIKI_PROVIDER/);
  });

  it('`wiki config get search.weights` answers with the group', async () => {
    const root = await freshWorkspace();
    const result = await runCli(['config', 'get', 'search.weights', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ key: 'search.weights', value: { lexical: 1, semantic: 1.5, token: 0.2 } });
    expect((await runCli(['config', 'get', 'search.nosuch'], { cwd: root })).code).toBe(2);
  });
});

describe("the model's lint findings", () => {
  it('about a page that does not exist are dropped with a note; the rest are kept', async () => {
    const root = await workspaceWithPage();
    server = await startFakeLlmServer([
      { text: 'FINDING contradiction wiki/concepts/ghost.md :: says beta comes first\nFINDING summary-mismatch wiki/concepts/alpha.md :: the summary is vague' },
    ]);
    const result = await runCli(['lint', '--json'], { cwd: root, env: server.env('anthropic') });
    const report = JSON.parse(result.stdout) as { findings: Array<{ rule: string; path: string }> };
    const model = report.findings.filter((f) => f.rule.startsWith('llm-'));
    expect(model.map((f) => f.path)).toEqual(['wiki/concepts/alpha.md']);
    expect(result.stderr).toMatch(/dropped 1 finding\(s\) of the model's review about pages that do not exist: wiki\/concepts\/ghost\.md/);
  });
});

describe('lint --fix: a rule repair the model undid', () => {
  it('is done again after the model, and reported once', async () => {
    const root = await workspaceWithPage();
    const file = path.join(root, 'wiki/concepts/alpha.md');
    const withoutCreated = (await readFile(file, 'utf8')).replace(/^created: .*\n/m, '');
    await writeFile(file, withoutCreated);
    // The model rewrites the page from the text it had, dropping the `created` the rule set.
    server = await startFakeLlmServer([{ toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/concepts/alpha.md', content: withoutCreated.replace('of the alphabet', 'of the Greek alphabet') } }] }, { text: 'Fixed the wording.' }]);
    const result = await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    const page = await readFile(file, 'utf8');
    expect(page).toMatch(/^created: \d{4}-\d{2}-\d{2}$/m);
    expect(page).toContain('Greek alphabet');
    const report = JSON.parse(result.stdout) as { changes: string[] };
    expect(report.changes.filter((change) => /alpha\.md.*set created/.test(change))).toHaveLength(1);
  });
});
