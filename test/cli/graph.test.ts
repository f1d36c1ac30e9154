import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageGraph } from '../../src/graph/build.js';
import { writeSampleWiki } from '../graph/sample-wiki.js';
import { initWorkspace, runCli, tempDir } from '../helpers/cli.js';

let root: string;
let keys: string[];
beforeAll(async () => {
  root = await initWorkspace();
  keys = await writeSampleWiki(root, { broken: true });
});

describe('wiki graph', () => {
  it('writes the HTML view to .wiki/graph.html by default and says where', async () => {
    const result = await runCli(['graph'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Wrote the html graph of 13 pages and \d+ links \(4 orphans, 2 missing\) to \.wiki\/graph\.html/);
    expect(result.stderr).toMatch(/2 links point to pages that do not exist/);
    const html = await readFile(path.join(root, '.wiki/graph.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('id="graph-data"');
  });

  it('--format json prints the graph on stdout', async () => {
    const result = await runCli(['graph', '--format', 'json'], { cwd: root });
    expect(result.code).toBe(0);
    const graph = JSON.parse(result.stdout) as PageGraph;
    expect(graph.nodes.map((n) => n.key)).toEqual(keys);
    expect(graph.missing.map((m) => m.target)).toEqual(['also-missing', 'not-yet-written']);
    expect(result.stderr).toMatch(/to stdout/);
  });

  it('--format dot prints Graphviz on stdout', async () => {
    const result = await runCli(['graph', '--format', 'dot'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^digraph "wiki-test-[^"]+" \{\n/);
    expect(result.stdout).toContain('"transformer" [label="Transformer"');
  });

  it('--out writes the file relative to the current directory and creates its folder', async () => {
    const cwd = await tempDir();
    const result = await runCli(['--root', root, 'graph', '--format', 'dot', '--out', 'out/g.dot'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('to out/g.dot');
    expect(await readFile(path.join(cwd, 'out/g.dot'), 'utf8')).toMatch(/^digraph /);
  });

  it('--out - sends HTML to stdout', async () => {
    const result = await runCli(['graph', '--out', '-'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^<!doctype html>/);
  });

  it('--json prints one summary document', async () => {
    const result = await runCli(['--json', 'graph', '--format', 'json', '--out', 'graph.json'], { cwd: root });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toEqual({
      format: 'json',
      nodes: 13,
      edges: expect.any(Number),
      orphans: 4,
      missing: 2,
      out: path.join(root, 'graph.json'),
    });
    expect((await stat(path.join(root, 'graph.json'))).size).toBeGreaterThan(0);
  });

  it.each([
    { name: '--json with dot on stdout', args: ['--json', 'graph', '--format', 'dot'], error: /--json prints a summary.*add --out FILE/ },
    { name: '--json with --out -', args: ['--json', 'graph', '--out', '-'], error: /--json prints a summary/ },
    { name: 'an unknown --format', args: ['graph', '--format', 'svg'], error: /Allowed choices are html, json, dot/ },
  ])('$name is a usage error (exit 2)', async ({ args, error }) => {
    const result = await runCli(args, { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(error);
    // With --json even a failure is one JSON document on stdout; never the graph itself.
    if (args.includes('--json')) {
      const failure = JSON.parse(result.stdout).error as { exitCode: number; message: string; hint: string | null };
      expect(failure.exitCode).toBe(2);
      expect(`${failure.message} — ${failure.hint ?? ''}`).toMatch(error);
    }
    else expect(result.stdout).toBe('');
  });

  it('outside a workspace is a configuration error (exit 2)', async () => {
    const result = await runCli(['graph'], { cwd: await tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no wiki workspace found/);
  });

  it('an empty wiki gives an empty graph', async () => {
    const empty = await initWorkspace();
    const result = await runCli(['graph', '--format', 'json'], { cwd: empty });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as PageGraph).nodes).toEqual([]);
  });

  it('--help shows examples', async () => {
    const result = await runCli(['graph', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Examples:/);
    expect(result.stdout).toContain('--format <format>');
  });
});
