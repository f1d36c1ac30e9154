import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { runCli, startCli, waitFor } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, manifestSources, pagePath, read, readJson, sourceOf, unparseablePages, writeStep } from './cron-fixtures.js';
import { stderrBesideFactsWarning } from '../helpers/sqlite.js';

/**
 * `wiki ingest --jobs N`: several sources at once in one process, under the one workspace
 * lock. No update is lost when two runs write the same page (a write over a version the run
 * has not seen is refused with the current page, and the model merges), and index.md,
 * log.md, the manifest and run history come out as one run after another would leave them.
 * Concurrency is forced with barriers in the scripted model, never with timing.
 */

const serve = fakeServers();
const SHARED = pagePath('concept', 'attention');

async function workspaceWith(...keys: string[]): Promise<string> {
  const root = await freshWorkspace();
  for (const key of keys) await writeFile(path.join(root, `raw/${key}.md`), `# ${key}\n\nA source about ${key} and attention.\n`);
  return root;
}

/** Resolves once `count` callers are waiting: every job has made its first request. */
function barrier(count: number): () => Promise<void> {
  let waiting = 0;
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (release = resolve));
  return async () => {
    waiting += 1;
    if (waiting >= count) release();
    await all;
  };
}

const CURRENT_PAGE = /<current-page path="[^"]+">\n([\s\S]*)<\/current-page>/;

/**
 * Each source's run: first (after every job has started) write the shared concept page with
 * its own line; if refused as stale, merge its line into the quoted current page and write
 * again; then its source page; then finish.
 */
function sharedPageScript(jobs: number): (request: RecordedRequest) => Promise<ScriptStep> {
  const started = barrier(jobs);
  return async (request) => {
    const key = sourceOf(request) ?? 'unknown';
    const line = `- ${key} says attention matters.`;
    const last = request.toolResults.at(-1);
    if (!last) {
      await started();
      return writeStep('concept', 'attention', { sources: [`raw/${key}.md`], body: `Notes.\n\n${line}` });
    }
    const current = CURRENT_PAGE.exec(last.content)?.[1];
    if (current !== undefined) {
      const merged = current.replace(/sources: \[([^\]]*)\]/, (_, list: string) => `sources: [${list}, raw/${key}.md]`).trimEnd();
      return { toolCalls: [{ name: 'write_file', arguments: { path: SHARED, content: `${merged}\n${line}\n` } }] };
    }
    if (last.content.includes(SHARED)) return writeStep('source', key, { refs: ['attention'] });
    return { text: `Ingested raw/${key}.md.` };
  };
}

describe('wiki ingest --jobs', () => {
  it('two jobs updating the same concept page: both contributions are in the final page, and the wiki stays whole', async () => {
    const root = await workspaceWith('alpha', 'beta');
    const server = await serve(sharedPageScript(2));
    const result = await runCli(['ingest', 'raw/', '--jobs', '2', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(stderrBesideFactsWarning(result.stderr)).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.ingested.map((s: { source: string; status: string }) => [s.source, s.status])).toEqual([
      ['raw/alpha.md', 'done'],
      ['raw/beta.md', 'done'],
    ]);
    // Exactly one of the two first writes was refused as stale, with the page quoted.
    const stale = server.requests.filter((r) => CURRENT_PAGE.test(r.toolResults.at(-1)?.content ?? ''));
    expect(stale).toHaveLength(1);
    expect(stale[0]?.toolResults.at(-1)?.content).toMatch(/was changed by the run ingesting raw\/(alpha|beta)\.md since you last saw it/);

    const page = await read(root, SHARED);
    expect(page).toContain('- alpha says attention matters.');
    expect(page).toContain('- beta says attention matters.');
    expect(page).toMatch(/sources: \[raw\/(alpha|beta)\.md, raw\/(alpha|beta)\.md\]/);
    expect(await manifestSources(root)).toEqual(['raw/alpha.md', 'raw/beta.md']);
    const index = await read(root, 'wiki/index.md');
    for (const key of ['alpha', 'beta', 'attention']) expect(index).toContain(`[[${key}]]`);
    const log = await read(root, 'wiki/log.md');
    expect(log.match(/^## \[\d{4}-\d\d-\d\d\] ingest \| /gm)).toHaveLength(2);
    expect(await unparseablePages(root)).toEqual([]);
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    expect(JSON.parse(lint.stdout).findings.filter((f: { severity: string }) => f.severity === 'error')).toEqual([]);
  });

  it('each job is its own run: undoing the one that merged puts the shared page back to what the other left', async () => {
    const root = await workspaceWith('alpha', 'beta');
    const server = await serve(sharedPageScript(2));
    const ingest = await runCli(['ingest', 'raw/', '--jobs', '2', '--json'], { cwd: root, env: server.env('openai') });
    expect(ingest.code).toBe(0);
    const stale = server.requests.find((r) => CURRENT_PAGE.test(r.toolResults.at(-1)?.content ?? ''));
    const merger = stale ? sourceOf(stale) : undefined;
    const first = merger === 'alpha' ? 'beta' : 'alpha';
    const runs = new Map((JSON.parse(ingest.stdout).ingested as Array<{ source: string; transcript: string }>).map((s) => [s.source, path.basename(s.transcript, '.jsonl')]));
    expect(new Set(runs.values()).size).toBe(2);

    // --force: whichever job finished last rewrote index.md after the other, as two runs in a row would.
    const undo = await runCli(['undo', runs.get(`raw/${merger}.md`) ?? 'missing', '--yes', '--force', '--json'], { cwd: root });
    expect(undo.code).toBe(0);
    const page = await read(root, SHARED);
    expect(page).toContain(`- ${first} says attention matters.`);
    expect(page).not.toContain(`- ${merger} says attention matters.`);
    expect(await unparseablePages(root)).toEqual([]);
  });

  it('--max-tokens bounds all jobs together: once spent, no job makes another call and the rest are pending', async () => {
    const root = await workspaceWith('alpha', 'beta', 'gamma', 'delta');
    const started = barrier(2);
    const server = await serve(async (request): Promise<ScriptStep> => {
      const key = sourceOf(request) ?? 'unknown';
      if (request.toolResults.length === 0) {
        await started();
        return { ...writeStep('source', key), usage: { inputTokens: 300, outputTokens: 0 } };
      }
      return { text: `Ingested raw/${key}.md.`, usage: { inputTokens: 10, outputTokens: 0 } };
    });
    const result = await runCli(['ingest', 'raw/', '--jobs', '2', '--max-tokens', '500', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    // Both first calls land (600 ≥ 500): both jobs stop after their step, nothing more is started.
    expect(server.requests).toHaveLength(2);
    expect(report.ingested.map((s: { status: string }) => s.status)).toEqual(['budget_tokens', 'budget_tokens']);
    expect(report.pending).toEqual(['raw/delta.md', 'raw/gamma.md']);
    expect(await manifestSources(root)).toEqual([]);
  });

  it('ingest.maxTokensPerSource stops one source without stopping the others', async () => {
    const root = await workspaceWith('alpha', 'beta');
    const config = await readJson(path.join(root, 'wiki.config.json'));
    await writeFile(path.join(root, 'wiki.config.json'), JSON.stringify({ ...config, ingest: { maxTokensPerSource: 1000 } }));
    const server = await serve((request): ScriptStep => {
      const key = sourceOf(request) ?? 'unknown';
      const heavy = key === 'alpha' ? 5000 : 100;
      if (request.toolResults.length === 0) return { ...writeStep('source', key), usage: { inputTokens: heavy, outputTokens: 0 } };
      return { text: `Ingested raw/${key}.md.` };
    });
    const result = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ingested.map((s: { source: string; status: string }) => [s.source, s.status])).toEqual([
      ['raw/alpha.md', 'budget_tokens'],
      ['raw/beta.md', 'done'],
    ]);
    expect(report.pending).toEqual([]);
    expect(report.ingested[0].budgetSetting).toBe('ingest.maxTokensPerSource in wiki.config.json');
    expect(await manifestSources(root)).toEqual(['raw/beta.md']);
  });

  it('--jobs takes a whole number from 1 to 32 (exit 2, nothing written)', async () => {
    const root = await workspaceWith('alpha');
    for (const bad of ['0', '33', 'two']) {
      const result = await runCli(['ingest', 'raw/', '--jobs', bad], { cwd: root });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--jobs takes/);
    }
    expect(await manifestSources(root)).toEqual([]);
  });

  it('plain progress tags every line with its source', async () => {
    const root = await workspaceWith('alpha', 'beta');
    const server = await serve((request): ScriptStep => {
      const key = sourceOf(request) ?? 'unknown';
      return request.toolResults.length === 0 ? writeStep('source', key) : { text: `Ingested raw/${key}.md.` };
    });
    const result = await runCli(['ingest', 'raw/', '--jobs', '2'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^\[raw\/alpha\.md\] turn 1\/40: write_file wiki\/sources\/alpha\.md$/m);
    expect(result.stderr).toMatch(/^\[raw\/beta\.md\] turn 1\/40: write_file wiki\/sources\/beta\.md$/m);
  });

  it('ends with tokens, cache reads and estimated cost per source and in total; wiki status shows the mean per source', async () => {
    const root = await workspaceWith('alpha', 'beta');
    // claude-sonnet-5: $2 per million input, $10 output, $0.20 cache reads.
    const server = await serve((request): ScriptStep => {
      const key = sourceOf(request) ?? 'unknown';
      if (request.toolResults.length === 0) return { ...writeStep('source', key), usage: { inputTokens: 10_000, outputTokens: 0, cacheReadTokens: 50_000 } };
      return { text: `Ingested raw/${key}.md.`, usage: { inputTokens: 5_000, outputTokens: 1_000 } };
    });
    const args = ['ingest', 'raw/', '--model', 'claude-sonnet-5'];
    const json = await runCli([...args, '--json'], { cwd: root, env: server.env('anthropic') });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    for (const source of report.ingested) {
      expect(source).toMatchObject({ tokens: 66_000, usage: { cacheReadTokens: 50_000 } });
      expect(source.cost).toBeCloseTo(0.05, 10);
    }
    expect(report.totals).toMatchObject({ sources: 2, tokens: 132_000, usage: { inputTokens: 30_000, outputTokens: 2_000, cacheReadTokens: 100_000 } });
    expect(report.totals.cost).toBeCloseTo(0.1, 10);

    await writeFile(path.join(root, 'raw/gamma.md'), '# gamma\n\nA third source.\n');
    const human = await runCli(args, { cwd: root, env: server.env('anthropic') });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Tokens:  15k input · 1k output · 50k cached · 0 cache writes');
    expect(human.stdout).toContain('Cost:    ~$0.05');

    const status = await runCli(['status'], { cwd: root, env: server.env('anthropic') });
    expect(status.stdout).toContain('Per source: 66k tokens (50k cached), est. ~$0.05 — mean over 3 source ingests');
  });

  it('prints the total line for several sources', async () => {
    const root = await workspaceWith('alpha', 'beta');
    const server = await serve((request): ScriptStep => {
      const key = sourceOf(request) ?? 'unknown';
      if (request.toolResults.length === 0) return { ...writeStep('source', key), usage: { inputTokens: 10_000, outputTokens: 0, cacheReadTokens: 50_000 } };
      return { text: `Ingested raw/${key}.md.`, usage: { inputTokens: 5_000, outputTokens: 1_000 } };
    });
    const result = await runCli(['ingest', 'raw/', '--model', 'claude-sonnet-5'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Total: 2 sources · 132k tokens · 100k cached · ~$0.10 (~$0.05 a source)');
  });

  it('SIGINT stops every job after its current step: exit 130, each run logged as interrupted, the rest pending, the lock released', async () => {
    const root = await workspaceWith('alpha', 'beta', 'gamma');
    const server = await serve((request): ScriptStep => (request.toolResults.length === 0 ? writeStep('source', sourceOf(request) ?? 'unknown') : { fault: 'stall' }));
    const run = startCli(['ingest', 'raw/', '--jobs', '2', '--json'], { cwd: root, env: server.env('anthropic') });
    await waitFor(() => server.requests.filter((r) => r.toolResults.length > 0).length === 2, 'both jobs to wait on the model after their first write');
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    const report = JSON.parse(result.stdout);
    expect(report.ingested.map((s: { source: string; status: string }) => [s.source, s.status])).toEqual([
      ['raw/alpha.md', 'interrupted'],
      ['raw/beta.md', 'interrupted'],
    ]);
    expect(report.pending).toEqual(['raw/gamma.md']);
    expect(report.interrupted).toBe(true);
    const log = await read(root, 'wiki/log.md');
    expect(log.match(/^## \[\d{4}-\d\d-\d\d\] ingest-interrupted \| /gm)).toHaveLength(2);
    expect(await read(root, 'wiki/sources/alpha.md')).toContain('Notes on alpha.');
    expect(await read(root, 'wiki/sources/beta.md')).toContain('Notes on beta.');
    expect(existsSync(path.join(root, '.wiki/lock'))).toBe(false);
    expect(await manifestSources(root)).toEqual([]);
    expect(await unparseablePages(root)).toEqual([]);
  });
});
