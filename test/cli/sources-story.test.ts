import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { freshWorkspace, patchConfig, simpleIngest } from './cron-fixtures.js';

/**
 * `wiki status` and `wiki ingest` tell one story about raw/: a file that is not a source is
 * listed once as skipped with why (never as pending), a large source starts with what it
 * will take, a source that is not UTF-8 names the fix and garbles no fact; status reads cleanly.
 */

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe('an unsupported file in raw/', () => {
  it('status lists it once as skipped with why, never as not ingested yet', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/figure.png'), PNG);
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is the first letter.\n');
    const human = await runCli(['status'], { cwd: root });
    expect(human.code, human.stderr).toBe(0);
    expect(count(human.stdout, 'raw/figure.png')).toBe(1);
    expect(human.stdout).toMatch(/raw\/figure\.png skipped: an image \(\.png\) is not a source wiki reads/);
    expect(count(human.stdout, 'raw/alpha.md')).toBe(1);
    expect(human.stdout).toMatch(/1 not ingested yet: raw\/alpha\.md$/m);
    const json = JSON.parse((await runCli(['status', '--json'], { cwd: root })).stdout) as { raw: { pending: string[]; unsupported: Array<{ path: string }> } };
    expect(json.raw.pending).toEqual(['raw/alpha.md']);
    expect(json.raw.unsupported.map((u) => u.path)).toEqual(['raw/figure.png']);
  });

  it('ingest raw/ says the same, once, whether it ingests or has nothing to do', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/figure.png'), PNG);
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is the first letter.\n');
    server = await startFakeLlmServer(simpleIngest('alpha'));
    const first = await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') });
    expect(first.code, first.stderr).toBe(0);
    expect(count(first.stdout + first.stderr, 'raw/figure.png')).toBe(1);
    expect(first.stdout).toMatch(/raw\/figure\.png skipped: an image \(\.png\) is not a source wiki reads/);
    const again = await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Nothing to do: every source is up to date\./);
    expect(count(again.stdout + again.stderr, 'raw/figure.png')).toBe(1);
    const status = await runCli(['status'], { cwd: root });
    expect(status.stdout).not.toMatch(/not ingested yet/);
  });
});

describe('a large source', () => {
  it('starts with a warning of the windows and turns it needs, and says its facts are skipped for size', async () => {
    const root = await freshWorkspace();
    await patchConfig(root, { facts: { maxSourceBytes: 1_000_000 } });
    const line = 'The bridge carries traffic over the river every day of the year.\n';
    await writeFile(path.join(root, 'raw/big.md'), `# Big\n\n${line.repeat(Math.ceil(3_000_000 / line.length))}`);
    server = await startFakeLlmServer(simpleIngest('big'));
    const result = await runCli(['ingest', 'raw/big.md', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.stderr).toMatch(/raw\/big\.md is 2\.9 MB: it will need about 151 read windows and 152 turns at least — above the turn limit \(40\): raise it with --max-turns/);
    expect(result.stderr).toMatch(/its facts are skipped for size \(over facts\.maxSourceBytes, 1\.0 MB\)/);
    const report = JSON.parse(result.stdout) as { facts: { sources: { tooLarge: string[] } } };
    expect(report.facts.sources.tooLarge).toEqual(['raw/big.md']);
  });

  it('a source of ordinary size gets no such warning', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/small.md'), '# Small\n\nA small source.\n');
    server = await startFakeLlmServer(simpleIngest('small'));
    const result = await runCli(['ingest', 'raw/small.md'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/read windows|skipped for size/);
  });
});

describe('a source that is not UTF-8', () => {
  it('names the fix (iconv) and no replacement character reaches the facts store', async () => {
    const root = await freshWorkspace();
    const latin1 = Buffer.concat([
      Buffer.from('# Caf', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from('\n\nThe harbour opened in 1937 after long delays.\n\nThe caf', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from(' by the harbour serves fish soup daily.\n', 'latin1'),
    ]);
    await writeFile(path.join(root, 'raw/cafe.md'), latin1);
    server = await startFakeLlmServer(simpleIngest('cafe'));
    const result = await runCli(['ingest', 'raw/cafe.md'], { cwd: root, env: server.env('anthropic') });
    expect(result.stdout + result.stderr).toMatch(/raw\/cafe\.md is not valid UTF-8.*iconv -f latin1 -t utf-8 raw\/cafe\.md/);
    const facts = JSON.parse((await runCli(['facts', 'search', 'harbour', '--json'], { cwd: root })).stdout) as { facts: Array<{ text: string }> };
    expect(facts.facts.map((f) => f.text)).toEqual(['The harbour opened in 1937 after long delays.']);
    expect(JSON.stringify(facts)).not.toContain('\uFFFD');
  });
});

describe('status reads cleanly', () => {
  it('grounding on a wiki with no page is n/a, not 100% over 0 pages; a set key is said once', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha is the first letter.\n');
    expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
    const human = await runCli(['status'], { cwd: root, env: { ANTHROPIC_API_KEY: 'sk-test' } });
    expect(human.stdout).toMatch(/^Grounded: n\/a/m);
    expect(human.stdout).not.toMatch(/100%.*over 0 page/);
    expect(count(human.stdout, 'ANTHROPIC_API_KEY')).toBe(1);
    const json = JSON.parse((await runCli(['status', '--json'], { cwd: root })).stdout) as { grounding: { pages: number; mean: number | null } };
    expect(json.grounding).toMatchObject({ pages: 0, mean: null });
  });
});
