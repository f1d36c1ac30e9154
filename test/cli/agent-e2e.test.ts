import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePage } from '../../src/wiki/page.js';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer, type ScriptStep } from '../helpers/fake-llm-server.js';
import { readSourceRecord } from '../helpers/source-record.js';

const SOURCE = `# Attention Is All You Need

The Transformer relies entirely on attention. Scaled dot-product attention divides the
query-key dot products by the square root of the key dimension before the softmax.
`;

const CONCEPT = `---
title: Scaled dot-product attention
summary: Attention weights from query-key dot products scaled by the square root of the key size.
type: concept
tags: [attention]
sources: [raw/attention.md]
created: 2026-11-21
updated: 2026-11-21
---

Scaled dot-product attention divides query-key dot products by sqrt(d_k) before the softmax.
`;

const SOURCE_PAGE = `---
title: Attention Is All You Need
summary: The paper that introduced the Transformer, built on attention alone.
type: source
refs: [scaled-dot-product-attention]
sources: [raw/attention.md]
created: 2026-11-21
updated: 2026-11-21
---

Introduces the Transformer; its core is [[scaled-dot-product-attention]].
`;

/** An ingest as a model would play it: look around, write in dependency order, recover from a rejected write. */
const INGEST_SCRIPT: ScriptStep[] = [
  {
    toolCalls: [
      { name: 'search_wiki', arguments: { query: 'attention' } },
      { name: 'list_directory', arguments: { path: 'wiki' } },
    ],
  },
  { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/attention.md', content: SOURCE_PAGE } }] },
  { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/concepts/scaled-dot-product-attention.md', content: CONCEPT } }] },
  { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/attention.md', content: SOURCE_PAGE } }] },
  { text: 'Created the source page and one concept page.' },
];

const QUERY_SCRIPT: ScriptStep[] = [
  { toolCalls: [{ name: 'search_wiki', arguments: { query: 'scaled attention', limit: 5 } }] },
  { toolCalls: [{ name: 'read_file', arguments: { path: 'wiki/concepts/scaled-dot-product-attention.md' } }] },
  {
    text: 'Attention scores are divided by the square root of the key dimension, which keeps the softmax from saturating [[scaled-dot-product-attention]]. See also [[made-up-page]].',
  },
];

const CONCEPT_WITH_LINK = CONCEPT.replace(
  'before the softmax.',
  'before the softmax, as introduced in [[attention]].',
).replace('updated: 2026-11-21', 'updated: 2026-11-22');

const LINT_SCRIPT: ScriptStep[] = [
  { toolCalls: [{ name: 'read_file', arguments: { path: 'wiki/concepts/scaled-dot-product-attention.md' } }] },
  { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/concepts/scaled-dot-product-attention.md', content: CONCEPT_WITH_LINK } }] },
  {
    text: [
      'Added the missing cross-reference.',
      'FINDING missing-link wiki/concepts/scaled-dot-product-attention.md :: did not link back to its source page (fixed)',
      'FINDING contradiction wiki/sources/attention.md :: two different layer counts are given',
    ].join('\n'),
  },
  // The question the grounding check asks about a sentence it is not sure of, answered in a round of its own.
  { text: 'ANSWER Q1 yes :: the cited lines say this in other words.' },
];

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(['anthropic', 'openai'] as const)('end to end through the %s wire format', (api) => {
  it('ingest, idempotent re-ingest, query --save', async () => {
    const root = await initWorkspace();
    await writeFile(path.join(root, 'raw', 'attention.md'), SOURCE);

    server = await startFakeLlmServer(INGEST_SCRIPT);
    const ingest = await runCli(['ingest', 'raw/attention.md', '--json'], { cwd: root, env: server.env(api) });
    expect(ingest.stderr).not.toMatch(/error:/);
    expect(ingest.code).toBe(0);
    expect(server.problems).toEqual([]);
    expect(server.remaining()).toBe(0);

    // The first write linked to a page that did not exist yet: refused with the reason, nothing written.
    const rejected = server.requests[2]?.toolResults[0];
    expect(rejected?.isError).toBe(true);
    expect(rejected?.content).toMatch(/broken-link.*scaled-dot-product-attention/s);
    // The system prompt carries schema.md.
    expect(server.requests[0]?.system).toContain('Workflow: ingest a source');
    expect(server.requests[0]?.lastUserText).toContain('raw/attention.md');
    expect(server.requests[0]?.lastUserText).toContain('The Transformer relies entirely on attention');

    const report = JSON.parse(ingest.stdout);
    expect(report.ingested[0]).toMatchObject({
      source: 'raw/attention.md',
      status: 'done',
      created: ['wiki/concepts/scaled-dot-product-attention.md', 'wiki/sources/attention.md'],
    });
    const index = await readFile(path.join(root, 'wiki/index.md'), 'utf8');
    expect(index).toContain('[[attention]]');
    expect(index).toContain('[[scaled-dot-product-attention]]');
    const log = await readFile(path.join(root, 'wiki/log.md'), 'utf8');
    expect(log).toMatch(/^## \[\d{4}-\d{2}-\d{2}\] ingest \| Attention Is All You Need · run \S+$/m);
    const manifest = await readSourceRecord(root);
    expect(Object.keys(manifest.sources)).toEqual(['raw/attention.md']);

    // Re-running on the unchanged source makes no model call.
    await server.close();
    server = await startFakeLlmServer([]);
    const again = await runCli(['ingest', 'raw/attention.md'], { cwd: root, env: server.env(api) });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/up to date/);
    expect(server.requests).toHaveLength(0);

    // query --save: the model answers without saving; wiki files the answer itself.
    await server.close();
    server = await startFakeLlmServer(QUERY_SCRIPT);
    const query = await runCli(['query', 'why is attention scaled?', '--save', '--json'], { cwd: root, env: server.env(api) });
    expect(query.code).toBe(0);
    const answer = JSON.parse(query.stdout);
    expect(answer.cited).toEqual(['scaled-dot-product-attention']);
    expect(answer.uncited).toEqual(['made-up-page']);
    expect(answer.saved).toEqual({ path: 'wiki/concepts/attention-scaled.md', by: 'wiki', created: true });
    const saved = parsePage(answer.saved.path, await readFile(path.join(root, answer.saved.path), 'utf8'));
    expect(saved.frontmatter.refs).toEqual(['scaled-dot-product-attention']);
    expect(saved.frontmatter.sources).toEqual(['raw/attention.md']);
    expect(saved.body).not.toContain('[[made-up-page]]');
    expect(await readFile(path.join(root, 'wiki/index.md'), 'utf8')).toContain('[[attention-scaled]]');
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toMatch(/\] query \| why is attention scaled\? · run \S+$/m);

    // Everything the runs wrote passes the deterministic lint.
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    expect(JSON.parse(lint.stdout).errors).toBe(0);

    // lint --fix with the model: the deterministic report goes first, the model repairs and reports.
    await server.close();
    server = await startFakeLlmServer(LINT_SCRIPT);
    const review = await runCli(['lint', '--fix', '--json'], { cwd: root, env: server.env(api) });
    expect(review.code, review.stdout + review.stderr).toBe(0);
    expect(server.remaining()).toBe(0);
    expect(server.requests[0]?.lastUserText).toMatch(/deterministic checks found 0 error/);
    expect(server.requests[0]?.system).toContain('Workflow: lint');
    const reviewed = JSON.parse(review.stdout);
    expect(reviewed.findings.map((f: { rule: string }) => f.rule)).toEqual(expect.arrayContaining(['llm-missing-link', 'llm-contradiction']));
    expect(reviewed.changes).toContain('wiki/concepts/scaled-dot-product-attention.md: updated by the model');
    expect(await readFile(path.join(root, 'wiki/concepts/scaled-dot-product-attention.md'), 'utf8')).toContain('[[attention]]');
    expect(await readFile(path.join(root, 'wiki/log.md'), 'utf8')).toMatch(/\] lint \| --fix: 0 repairs by rules, 1 by the model · run \S+$/m);

    // The model's repair is undoable.
    const undone = await runCli(['undo', '--yes'], { cwd: root });
    expect(undone.code).toBe(0);
    expect(await readFile(path.join(root, 'wiki/concepts/scaled-dot-product-attention.md'), 'utf8')).not.toContain('[[attention]]');
  });
});
