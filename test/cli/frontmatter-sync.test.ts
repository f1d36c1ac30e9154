import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../src/util/dates.js';
import { initWorkspace, runCli, tempDir } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers } from '../helpers/use-fake-llm.js';

/**
 * The frontmatter kept in step by the write tools, through the built CLI and both wire
 * formats: a model that appends links (append_to_file cannot touch frontmatter) still
 * leaves `refs` listing them, and is told so in the tool result; lint flags drift on a
 * page written before, and `lint --fix --no-llm` repairs it.
 */

const startServer = fakeServers();

const SOURCE = '# Attention\n\nThe Transformer relies on attention.\nIt scales dot products by the key size.\n';

const CONCEPT = `---
title: Scaled dot-product attention
summary: Attention weights from query-key dot products scaled by the key size.
type: concept
sources: [raw/attention.md]
created: 2026-01-01
updated: 2026-01-01
---

Dot products are scaled by the square root of the key size. <!-- from: raw/attention.md#L4 -->
`;

const SOURCE_PAGE = `---
title: Attention notes
summary: Notes on the attention source.
type: source
refs: []
sources: [raw/attention.md]
created: 2026-01-01
updated: 2026-01-01
---

The Transformer relies on attention. <!-- from: raw/attention.md#L3 -->
`;

const INGEST: ScriptStep[] = [
  { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/concepts/scaled-dot-product-attention.md', content: CONCEPT } }] },
  { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/attention-notes.md', content: SOURCE_PAGE } }] },
  { toolCalls: [{ name: 'append_to_file', arguments: { path: 'wiki/sources/attention-notes.md', content: '## Related\n\n- [[scaled-dot-product-attention]]' } }] },
  { text: 'Wrote a source page and a concept page.' },
];

describe.each(['anthropic', 'openai'] as const)('frontmatter kept in step through the %s wire format', (api) => {
  it('an append of links leaves refs listing them, said in the tool result; lint finds no drift', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'raw', 'attention.md'), SOURCE);
    const server = await startServer(INGEST);
    const before = isoDate();
    const ingest = await runCli(['ingest', 'raw/attention.md', '--json'], { cwd: root, env: server.env(api) });
    const after = isoDate();
    expect(ingest.code).toBe(0);
    expect(server.problems).toEqual([]);

    const appended = server.requests[3]?.toolResults[0];
    expect(appended?.isError).toBe(false);
    expect(appended?.content).toMatch(/frontmatter kept in step with the body: added to refs: scaled-dot-product-attention$/);

    const page = await readFile(path.join(root, 'wiki/sources/attention-notes.md'), 'utf8');
    expect(page).toContain('refs: [scaled-dot-product-attention]\n');
    expect([before, after].some((day) => page.includes(`updated: ${day}\n`))).toBe(true);
    expect(page).toContain('created: 2026-01-01\n');

    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const findings = (JSON.parse(lint.stdout) as { findings: Array<{ rule: string }> }).findings;
    expect(findings.filter((f) => f.rule === 'frontmatter-drift')).toEqual([]);
  });
});

describe('lint and drift on pages written before', () => {
  it('warns on a page whose refs and sources lag its body, and `lint --fix --no-llm` repairs it once', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'raw', 'attention.md'), SOURCE);
    await writeFile(path.join(root, 'wiki/concepts/scaled-dot-product-attention.md'), CONCEPT.replace('sources: [raw/attention.md]\n', ''));
    await writeFile(path.join(root, 'wiki/sources/attention-notes.md'), `${SOURCE_PAGE}\nSee [[scaled-dot-product-attention]].\n`);

    const first = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const drift = (JSON.parse(first.stdout) as { findings: Array<{ rule: string; path: string; message: string }> }).findings.filter((f) => f.rule === 'frontmatter-drift');
    expect(drift.map((f) => `${f.path}: ${f.message}`)).toEqual([
      'wiki/concepts/scaled-dot-product-attention.md: from-comments cite raw/attention.md, not in `sources`',
      'wiki/sources/attention-notes.md: the body links to [[scaled-dot-product-attention]], not in `refs`',
    ]);

    const fixed = await runCli(['lint', '--fix', '--no-llm', '--json'], { cwd: root });
    const report = JSON.parse(fixed.stdout) as { changes: string[]; findings: Array<{ rule: string }> };
    expect(report.changes).toContain('wiki/sources/attention-notes.md: added to refs: scaled-dot-product-attention (linked from the body)');
    expect(report.changes).toContain('wiki/concepts/scaled-dot-product-attention.md: added to sources: raw/attention.md (cited in from-comments)');
    expect(report.findings.filter((f) => f.rule === 'frontmatter-drift')).toEqual([]);

    const again = await runCli(['lint', '--fix', '--no-llm', '--json'], { cwd: root });
    expect((JSON.parse(again.stdout) as { changes: string[] }).changes).toEqual([]);
  });

  it('finds no drift on the example wiki `wiki init --example` writes', async () => {
    const root = await tempDir();
    const example = path.join(root, 'example');
    const init = await runCli(['init', example, '--example'], { cwd: root });
    expect(init.code).toBe(0);
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: example });
    const findings = (JSON.parse(lint.stdout) as { findings: Array<{ rule: string; path: string }> }).findings;
    expect(findings.filter((f) => f.rule === 'frontmatter-drift')).toEqual([]);
  });
});
