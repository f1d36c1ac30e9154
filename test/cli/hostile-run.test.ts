import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, hashTree, runCli, tempDir } from '../helpers/cli.js';
import { startSwapper } from '../helpers/swapper.js';
import { startFakeLlmServer, type FakeLlmServer, type ScriptStep } from '../helpers/fake-llm-server.js';
import { freshWorkspace, pagePath, pageText, unparseablePages } from './cron-fixtures.js';

/**
 * An ingest run by a model that attacks on purpose, through the built CLI: 1,500 reads in
 * one turn aimed at secrets and the source, a 100 MB page, a 50 MB append, writes outside
 * wiki/. The run must end with no secret in anything sent to the model, nothing written
 * outside wiki/, the process under 1 GB resident, every page parseable and the lock gone.
 */
const MB = 1024 * 1024;
const ENV_SECRET = 'sk-live-HOSTILE-env-4f1c9a';
const GIT_SECRET = 'ghp_HOSTILE_git_token_77d2';
const OUTSIDE_SECRET = 'OUTSIDE-HOSTILE-secret-90ab';

let servers: FakeLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Runs the shipped CLI and writes its peak resident memory (KB, process.resourceUsage) to a file on exit. */
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

const call = (name: string, args: Record<string, unknown>): { name: string; arguments: Record<string, unknown> } => ({ name, arguments: args });

function hostileScript(): ScriptStep[] {
  const targets = ['.env', '.git/config', '../outside/secret.txt', 'raw/hostile.md', 'wiki.config.json', '.wiki/lock'];
  const reads = Array.from({ length: 1500 }, (_, i) => call('read_file', { path: targets[i % targets.length] }));
  const page = pageText('source', 'hostile', { sources: ['raw/hostile.md'], body: 'What the hostile source says.' });
  return [
    { toolCalls: reads },
    { toolCalls: [call('write_file', { path: pagePath('concept', 'huge'), content: pageText('concept', 'huge', { body: 'x'.repeat(100 * MB) }) })] },
    { toolCalls: [call('write_file', { path: pagePath('source', 'hostile'), content: page })] },
    { toolCalls: [call('append_to_file', { path: pagePath('source', 'hostile'), content: `\n${'y'.repeat(50 * MB)}\n` })] },
    {
      toolCalls: ['../outside/planted.md', '/tmp/hostile-planted.md', 'raw/planted.md', '.env', '.git/config', 'wiki.config.json', '.wiki/lock', 'wiki/../planted.md'].map(
        (target) => call('write_file', { path: target, content: pageText('concept', 'planted') }),
      ),
    },
    { toolCalls: [call('search_wiki', { query: 'sk-live HOSTILE ghp' }), call('list_directory', { path: '.' })] },
    { text: 'Done.' },
  ];
}

// One wire format: both are covered elsewhere, and the same run in the OpenAI format takes over a minute here (about 10 s in this one).
describe.each(['anthropic'] as const)('a hostile ingest through the CLI (%s wire format)', (wire) => {
  it('gives away no secret, writes nothing outside wiki/, stays under 1 GB and leaves a whole wiki', async () => {
    const parent = await tempDir('wiki-hostile-');
    const root = path.join(parent, 'ws');
    await cp(await freshWorkspace(), root, { recursive: true });
    await mkdir(path.join(parent, 'outside'));
    await writeFile(path.join(parent, 'outside/secret.txt'), `${OUTSIDE_SECRET}\n`);
    await writeFile(path.join(root, '.env'), `API_KEY=${ENV_SECRET}\n`);
    await mkdir(path.join(root, '.git'), { recursive: true });
    await writeFile(path.join(root, '.git/config'), `[remote "origin"]\n\turl = https://${GIT_SECRET}@example.com/x.git\n`);
    await writeFile(path.join(root, 'raw/hostile.md'), '# Hostile\n\nA source that asks for everything.\n');
    const outsideWiki = async (): Promise<Map<string, string>> =>
      new Map([...(await hashTree(parent))].filter(([file]) => !file.startsWith('ws/wiki/') && !file.startsWith('ws/.wiki/') && file !== 'ws/wiki.sources.jsonl'));
    const before = await outsideWiki();

    const server = await startFakeLlmServer(hostileScript(), { chunkSize: 4 * MB });
    servers.push(server);
    const { cli, rssFile } = await rssWrapper(await tempDir('wiki-hostile-rss-'));
    const result = await runCli(['ingest', 'raw/hostile.md', '--json'], { cwd: root, env: server.env(wire), cli, timeoutMs: 240_000 });

    expect(result.stderr).not.toMatch(/unexpected failure|heap out of memory/i);
    expect(result.code).toBe(0);
    expect(server.problems).toEqual([]);

    // Nothing the model was sent holds a secret.
    const sent = server.requests.map((request) => JSON.stringify(request.body));
    for (const secret of [ENV_SECRET, GIT_SECRET, OUTSIDE_SECRET]) {
      expect(sent.filter((body) => body.includes(secret))).toEqual([]);
    }
    // The 1,500 reads: 64 ran, the rest were refused as over the per-turn count.
    const firstResults = server.requests[1]?.toolResults ?? [];
    expect(firstResults).toHaveLength(1500);
    expect(firstResults.filter((r) => r.content.includes('limits.toolCallsPerTurn'))).toHaveLength(1500 - 64);
    // The huge write and append were refused with the setting to change; nothing was re-sent whole.
    expect(server.requests[2]?.toolResults[0]?.content).toContain('limits.pageWriteBytes');
    expect(server.requests[4]?.toolResults[0]?.content).toContain('limits.appendBytes');
    expect(Math.max(...sent.map((body) => body.length))).toBeLessThan(8 * MB);

    // Nothing changed outside wiki/, .wiki/ and the ingest record (the tool's own state).
    expect(await outsideWiki()).toEqual(before);
    await expect(stat('/tmp/hostile-planted.md')).rejects.toThrow();

    const maxRssKb = Number(await readFile(rssFile, 'utf8'));
    expect(maxRssKb).toBeGreaterThan(0);
    expect(maxRssKb * 1024).toBeLessThan(1024 * MB);

    expect(await unparseablePages(root)).toEqual([]);
    await expect(stat(path.join(root, '.wiki/lock'))).rejects.toThrow();
    const runs = await readdir(path.join(root, '.wiki/runs'));
    for (const name of runs) {
      const transcript = await stat(path.join(root, '.wiki/runs', name));
      expect(transcript.size).toBeLessThan(64 * MB);
    }
    console.log(`hostile run (${wire}): max RSS ${Math.round(maxRssKb / 1024)} MB, transcript ${runs.length} file(s)`);
  }, 300_000);

  it('with a helper swapping files and folders for symlinks during the run: 0 outside reads, 0 outside writes', async () => {
    const parent = await tempDir('wiki-hostile-swap-');
    const root = path.join(parent, 'ws');
    const outside = path.join(parent, 'outside');
    await cp(await freshWorkspace(), root, { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.txt'), `${OUTSIDE_SECRET}\n`);
    await writeFile(path.join(outside, 'attention.md'), pageText('concept', 'attention', { body: OUTSIDE_SECRET }));
    await writeFile(path.join(root, 'raw/hostile.md'), '# Hostile\n\nA source whose neighbours keep turning into links.\n');
    await writeFile(path.join(root, 'raw/paper.md'), '# Paper\n\nThe real paper.\n');
    await mkdir(path.join(root, 'wiki/concepts'), { recursive: true });
    await writeFile(path.join(root, pagePath('concept', 'attention')), pageText('concept', 'attention'));
    await writeFile(path.join(root, pagePath('source', 'linked')), pageText('source', 'linked', { sources: ['raw/paper.md'] }));
    const outsideBefore = await hashTree(outside);

    // Every call aims at a path the swapper flips; the source page sits beside them, unflipped.
    const turn = (i: number) => [
      call('read_file', { path: 'raw/paper.md' }),
      call('read_file', { path: pagePath('concept', 'attention') }),
      call('read_file', { path: pagePath('source', 'linked') }),
      call('list_directory', { path: 'wiki/concepts' }),
      call('write_file', { path: pagePath('concept', `swapped-${i}`), content: pageText('concept', `swapped-${i}`, { sources: ['raw/hostile.md'] }) }),
      call('append_to_file', { path: pagePath('concept', 'attention'), content: `\nLine ${i}.\n` }),
      call('append_to_file', { path: pagePath('source', 'linked'), content: `\nLine ${i}.\n` }),
      call('search_wiki', { query: 'attention' }),
    ];
    const script: ScriptStep[] = [
      { toolCalls: [call('write_file', { path: pagePath('source', 'hostile'), content: pageText('source', 'hostile') })] },
      ...Array.from({ length: 30 }, (_, i) => ({ toolCalls: turn(i) })),
      { text: 'Done.' },
    ];
    const server = await startFakeLlmServer(script);
    servers.push(server);
    const stop = path.join(parent, 'stop');
    const swapper = startSwapper(root, outside, stop, [
      { path: 'raw/paper.md', outside: 'secret.txt' },
      { path: 'wiki/concepts', outside: '.' },
      { path: pagePath('source', 'linked'), outside: 'attention.md' },
    ]);
    await swapper.ready;
    let result: Awaited<ReturnType<typeof runCli>>;
    try {
      result = await runCli(['ingest', 'raw/hostile.md', '--json'], { cwd: root, env: server.env(wire), timeoutMs: 240_000 });
    } finally {
      await writeFile(stop, '');
    }
    const flips = await swapper.done;

    // The run ends normally, or stops when an after-step meets a page while it is a link
    // (exit 2 naming it) or while it is briefly gone mid-swap (an error naming the file):
    // loud, never through the link. What must hold whatever the exit is asserted below.
    expect(result.stderr).not.toMatch(/heap out of memory/i);
    expect([0, 1, 2], result.stderr).toContain(result.code);
    expect(server.problems).toEqual([]);
    // 0 outside reads: nothing the model was sent holds the outside content.
    const sent = server.requests.map((request) => JSON.stringify(request.body));
    expect(sent.filter((body) => body.includes(OUTSIDE_SECRET))).toEqual([]);
    // 0 outside writes: the outside folder is byte for byte as it was.
    expect(await hashTree(outside)).toEqual(outsideBefore);
    // The attack ran alongside the run, and the tools kept working between swaps.
    expect(flips).toBeGreaterThan(0);
    // A run that reached its end used the tools between swaps (one stopped by a swap may not have).
    const results = server.requests.flatMap((request) => request.toolResults);
    if (result.code === 0) expect(results.filter((r) => !r.isError).length).toBeGreaterThan(0);
    expect(await unparseablePages(root)).toEqual([]);
    await expect(stat(path.join(root, '.wiki/lock'))).rejects.toThrow();
  }, 300_000);
});
