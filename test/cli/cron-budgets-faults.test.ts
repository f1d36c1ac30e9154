import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, runCli } from '../helpers/cli.js';
import { type ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, manifestSources, patchConfig, read, sourceOf, unparseablePages, writeStep } from './cron-fixtures.js';

/**
 * Runs that must stop on their own: turn, token and cost budgets, and every way a provider
 * can fail. Each ends with a status, a one-line reason and an exit code a cron wrapper can
 * act on; nothing is left half-done (the failed source is not recorded as ingested, and
 * every page parses).
 */

const serve = fakeServers();

async function workspaceWith(...keys: string[]): Promise<string> {
  const root = await freshWorkspace();
  for (const key of keys) await writeFile(path.join(root, `raw/${key}.md`), `# ${key}\n\nA source about ${key}.\n`);
  return root;
}


/** The line of human output that says why the run stopped (and what to do about it). */
function reasonLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^\s+! (provider error: |.*raise it with)/.test(line));
}

describe('budgets', () => {
  it('--max-turns stops at the cap with status max_turns, exit 1 and a summary of what was written', async () => {
    const root = await workspaceWith('alpha');
    const server = await serve([
      writeStep('concept', 'alpha-idea', { sources: ['raw/alpha.md'] }),
      writeStep('source', 'alpha', { refs: ['alpha-idea'] }),
      { text: 'never reached' },
    ]);
    const result = await runCli(['ingest', 'raw/alpha.md', '--max-turns', '2'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(result.stdout).toContain('+ wiki/concepts/alpha-idea.md');
    expect(result.stdout).toContain('+ wiki/sources/alpha.md');
    expect(reasonLines(result.stdout)).toEqual(['  ! stopped at the turn limit (2); raise it with --max-turns']);
    expect(await manifestSources(root)).toEqual([]); // not finished: the next run ingests it again
    expect(await read(root, 'wiki/log.md')).toMatch(/status: max_turns, 2 turn\(s\)/);
    expect(await unparseablePages(root)).toEqual([]);
  });

  it('--max-tokens stops once the run has used that many tokens (status budget_tokens, exit 1)', async () => {
    const root = await workspaceWith('alpha');
    const server = await serve([
      { ...writeStep('source', 'alpha'), usage: { inputTokens: 400, outputTokens: 200 } },
      { text: 'never reached' },
    ]);
    const result = await runCli(['ingest', 'raw/alpha.md', '--max-tokens', '500', '--json'], { cwd: root, env: server.env('openai') });
    expect(result.code).toBe(1);
    const outcome = JSON.parse(result.stdout).ingested[0];
    expect(outcome).toMatchObject({ status: 'budget_tokens', tokens: 600, created: ['wiki/sources/alpha.md'] });
    expect(server.requests).toHaveLength(1);
    expect(await manifestSources(root)).toEqual([]);
  });

  it('--max-cost stops a priced model once the estimate reaches it (status budget_cost, exit 1)', async () => {
    const root = await workspaceWith('alpha');
    // claude-sonnet-5 lists at $2 per million input tokens: 10,000 tokens cost $0.02.
    const server = await serve([
      { ...writeStep('source', 'alpha'), usage: { inputTokens: 10_000, outputTokens: 0 } },
      { text: 'never reached' },
    ]);
    const args = ['ingest', 'raw/alpha.md', '--model', 'claude-sonnet-5', '--max-cost', '0.01'];
    const result = await runCli(args, { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body.model).toBe('claude-sonnet-5');
    // The one call cost more than the whole budget: said as it is, not as "reached".
    expect(reasonLines(result.stdout)).toEqual(['  ! stopped: the last call went past the cost budget (~$0.0200 spent of $0.01); raise it with --max-cost']);
    expect(await manifestSources(root)).toEqual([]);
  });

  it('--max-tokens is a budget for the whole command, not for each source (one job at a time)', async () => {
    const root = await workspaceWith('alpha', 'beta', 'gamma');
    const server = await serve((request): ScriptStep => {
      const key = sourceOf(request) ?? 'unknown';
      if (request.toolResults.length > 0) return { text: `Ingested ${key}.`, usage: { inputTokens: 100, outputTokens: 0 } };
      return { ...writeStep('source', key), usage: { inputTokens: key === 'alpha' ? 400 : 600, outputTokens: 0 } };
    });
    const result = await runCli(['ingest', 'raw/', '--jobs', '1', '--max-tokens', '1000', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    // alpha: 500 tokens, done. beta: 600 more passes the 1000 left for the whole run. gamma never starts.
    expect(report.ingested.map((s: { source: string; status: string }) => [s.source, s.status])).toEqual([
      ['raw/alpha.md', 'done'],
      ['raw/beta.md', 'budget_tokens'],
    ]);
    expect(report.pending).toEqual(['raw/gamma.md']);
    expect(report.ok).toBe(false);
    expect(server.requests.some((r) => sourceOf(r) === 'gamma')).toBe(false);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md']);
  });
});

async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface FaultCase {
  name: string;
  config: Record<string, unknown>;
  /** What the server does on the second model call (the first writes the source page). */
  fault: ScriptStep[];
  code: number;
  reason: RegExp;
}

const FAULTS: FaultCase[] = [
  { name: 'a request timeout', config: { requestTimeoutMs: 1000, maxRetries: 0 }, fault: [{ fault: 'stall' }], code: 1, reason: /within 1s|stalled for 1s/ },
  {
    name: '429 after the retries',
    config: { maxRetries: 1 },
    fault: [
      { fault: 'status', status: 429, retryAfterMs: 10 },
      { fault: 'status', status: 429, retryAfterMs: 10 },
    ],
    code: 1,
    reason: /rate limited by http:\/\/127\.0\.0\.1:\d+\S* \(429\) after 1 retry/,
  },
  {
    name: '500 after the retries',
    config: { maxRetries: 1 },
    fault: [
      { fault: 'status', status: 500, retryAfterMs: 10 },
      { fault: 'status', status: 500, retryAfterMs: 10 },
    ],
    code: 1,
    reason: /server error \(500\) from http:\/\/127\.0\.0\.1:\d+\S* after 1 retry/,
  },
  {
    name: '529 overloaded after the retries',
    config: { maxRetries: 1 },
    fault: [
      { fault: 'status', status: 529, retryAfterMs: 10 },
      { fault: 'status', status: 529, retryAfterMs: 10 },
    ],
    code: 1,
    reason: /server error \(529 overloaded\) from http:\/\/127\.0\.0\.1:\d+\S* after 1 retry/,
  },
  // A bad key is configuration: retrying the same cron job cannot fix it.
  { name: '401', config: {}, fault: [{ fault: 'status', status: 401 }], code: 2, reason: /authentication failed \(401\) — check (ANTHROPIC|OPENAI)_API_KEY/ },
  { name: 'a cut stream', config: { maxRetries: 0 }, fault: [{ fault: 'cut-stream' }], code: 1, reason: /cut off before/ },
];

describe.each(['anthropic', 'openai'] as const)('provider faults through the %s wire format', (api) => {
  it.each(FAULTS)('$name: one-line reason, exit $code, nothing half-done', async ({ config, fault, code, reason }) => {
    const root = await workspaceWith('alpha');
    await patchConfig(root, config);
    const server = await serve([writeStep('source', 'alpha'), ...fault]);
    const result = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env(api) });
    expect(result.code).toBe(code);
    expect(server.remaining()).toBe(0);
    const reasons = reasonLines(result.stdout);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^ {2}! provider error: /);
    expect(reasons[0]).toMatch(reason);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(await manifestSources(root)).toEqual([]);
    expect(await unparseablePages(root)).toEqual([]);
    expect(await read(root, 'wiki/log.md')).toMatch(/status: provider_error/);
  });
});

describe('a provider failure on one source of several', () => {
  it('stops the command there: the rest is left for the next run, not sent to a failing provider', async () => {
    const root = await workspaceWith('alpha', 'beta');
    await patchConfig(root, { maxRetries: 0 });
    const server = await serve((request): ScriptStep => (sourceOf(request) === 'alpha' ? { fault: 'status', status: 500 } : { text: 'never asked' }));
    const result = await runCli(['ingest', 'raw/', '--jobs', '1', '--json'], { cwd: root, env: server.env('openai') });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ingested).toMatchObject([{ source: 'raw/alpha.md', status: 'provider_error', errorKind: 'server' }]);
    expect(report.pending).toEqual(['raw/beta.md']);
    expect(server.requests).toHaveLength(1);
    expect(await manifestSources(root)).toEqual([]);
  });
});

describe('an unreachable server', () => {
  it('is named with its URL and the fix, exit 1; a run that failed before doing anything leaves the wiki untouched', async () => {
    const root = await workspaceWith('alpha');
    await patchConfig(root, { maxRetries: 0 });
    const url = `http://127.0.0.1:${await closedPort()}`;
    const before = await hashTree(path.join(root, 'wiki'));
    const result = await runCli(['ingest', 'raw/alpha.md', '--provider', 'anthropic', '--base-url', url], {
      cwd: root,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
    expect(result.code).toBe(1);
    expect(reasonLines(result.stdout)).toEqual([`  ! provider error: cannot reach ${url} — is the server running?`]);
    expect(await manifestSources(root)).toEqual([]);
    // No log entry either: a cron job retrying against a server that is down adds nothing to the log.
    expect(await hashTree(path.join(root, 'wiki'))).toEqual(before);
  });
});

describe('malformed tool-call JSON from the model', () => {
  it('goes back to the model as an error result; the run continues and finishes', async () => {
    const root = await workspaceWith('alpha');
    const server = await serve([{ fault: 'malformed-tool-json' }, writeStep('source', 'alpha'), { text: 'Done after fixing the call.' }]);
    const result = await runCli(['ingest', 'raw/alpha.md', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    const feedback = server.requests[1]?.toolResults[0];
    expect(feedback?.isError).toBe(true);
    expect(feedback?.content).toMatch(/JSON/);
    expect(JSON.parse(result.stdout).ingested[0]).toMatchObject({ status: 'done', created: ['wiki/sources/alpha.md'] });
    expect(await manifestSources(root)).toEqual(['raw/alpha.md']);
  });
});

describe('a context-window overflow', () => {
  const overflow: ScriptStep = { fault: 'status', status: 400, message: 'prompt is too long: 215000 tokens > 200000 maximum' };
  const readSource: ScriptStep = { toolCalls: [{ name: 'read_file', arguments: { path: 'raw/alpha.md' } }] };
  const listWiki: ScriptStep = { toolCalls: [{ name: 'list_directory', arguments: { path: 'wiki' } }] };

  /** A source long enough that its read result is worth trimming. */
  async function longSourceWorkspace(): Promise<string> {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), `# Alpha\n\n${'A long paragraph about alpha. '.repeat(100)}\n`);
    return root;
  }

  it('trims old tool results and retries once', async () => {
    const root = await longSourceWorkspace();
    const server = await serve([readSource, listWiki, overflow, writeStep('source', 'alpha'), { text: 'Done.' }]);
    const result = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(server.remaining()).toBe(0);
    // The retry carries the old read as a stub instead of its text.
    expect(JSON.stringify(server.requests[2]?.body)).not.toContain('[trimmed: result of read_file(raw/alpha.md)');
    expect(JSON.stringify(server.requests[3]?.body)).toContain('[trimmed: result of read_file(raw/alpha.md)');
    expect(await manifestSources(root)).toEqual(['raw/alpha.md']);
  });

  it('fails clearly when the retry overflows too (exit 1)', async () => {
    const root = await longSourceWorkspace();
    const server = await serve([readSource, listWiki, overflow, overflow]);
    const result = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(1);
    expect(server.remaining()).toBe(0);
    expect(reasonLines(result.stdout)).toEqual([
      expect.stringMatching(/^ {2}! provider error: The conversation no longer fits the model's context window, even after trimming old tool results/),
    ]);
    expect(await manifestSources(root)).toEqual([]);
  });
});
