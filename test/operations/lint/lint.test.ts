import { mkdir, mkdtemp, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { initWorkspace } from '../../../src/operations/workspace/init.js';
import { lintWorkspace } from '../../../src/operations/lint/lint.js';
import { acquireLock, LockError } from '../../../src/state/lock.js';
import { isoDate } from '../../../src/util/dates.js';
import { parseLogEntries } from '../../../src/wiki/log.js';
import { splitFrontmatter } from '../../../src/wiki/page.js';
import { loadSchema } from '../../../src/wiki/schema-loader.js';

const config = configSchema.parse({});

async function workspace(files: Record<string, string> = {}): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-lint-'));
  await initWorkspace(root);
  for (const [p, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, p)), { recursive: true });
    await writeFile(path.join(root, p), text);
  }
  return root;
}

async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) await walk(rel);
      else out[rel] = await readFile(path.join(root, rel), 'utf8');
    }
  }
  await walk('wiki');
  return out;
}

const MESSY = {
  'raw/paper.md': 'The paper.\n',
  'wiki/sources/paper.md': '---\ntitle: Paper\nsummary: The paper.\nsources: [raw/paper.md]\n---\n\nIntroduces [[transformers]].\n',
  'wiki/concepts/transformer.md': '---\nsummary: A model.\ntitle: Transformer\nsources: [raw/paper.md, raw/gone.md]\n---\n\nFrom [[paper]]; see [[nowhere]].\n',
};

describe('lintWorkspace', () => {
  it('finds nothing in a fresh workspace and --fix then changes nothing, not even the log', async () => {
    const root = await workspace();
    const schema = await loadSchema(root);
    const before = await snapshot(root);
    expect(await lintWorkspace(root, schema, config, { fix: false })).toMatchObject({ findings: [], errors: 0, warnings: 0, questions: 0, changes: [], repairable: 0 });
    expect(await lintWorkspace(root, schema, config, { fix: true })).toMatchObject({ findings: [], errors: 0, warnings: 0, changes: [] });
    expect(await snapshot(root)).toEqual(before);
  });

  it('reports without writing anything when not fixing', async () => {
    const root = await workspace(MESSY);
    const before = await snapshot(root);
    const report = await lintWorkspace(root, await loadSchema(root), config, { fix: false });
    expect(report.findings.map((f) => `${f.rule} ${f.path}`)).toEqual([
      'frontmatter-drift wiki/concepts/transformer.md', // links [[paper]], not in refs
      'missing-source wiki/concepts/transformer.md',
      'orphan wiki/concepts/transformer.md', // paper's link to it is misspelled
      'unindexed wiki/concepts/transformer.md',
      'broken-link wiki/concepts/transformer.md',
      'unindexed wiki/sources/paper.md',
      'broken-link wiki/sources/paper.md',
    ]);
    expect(report).toMatchObject({ errors: 3, warnings: 4, changes: [] });
    expect(await snapshot(root)).toEqual(before);
  });

  it('--fix repairs, logs one entry, reports what is left, and a second run changes nothing', async () => {
    const root = await workspace(MESSY);
    const schema = await loadSchema(root);
    const mtime = new Date(2026, 0, 15, 12, 0, 0);
    await utimes(path.join(root, 'wiki/concepts/transformer.md'), mtime, mtime);
    const before = await snapshot(root);

    const first = await lintWorkspace(root, schema, config, { fix: true });
    expect(first.changes).toContain('wiki/sources/paper.md: link `[[transformers]]` → `[[transformer]]`');
    expect(first.changes).toContain('wiki/index.md: listed 2 unindexed pages');
    expect(first.changes).toContain('wiki/concepts/transformer.md: added to refs: paper (linked from the body)');
    expect(first.findings.map((f) => f.rule)).toEqual(['missing-source', 'broken-link']);
    expect(first.errors).toBe(2);

    const after = await snapshot(root);
    const transformer = after['wiki/concepts/transformer.md'] ?? '';
    // The owner's field order is kept: only the repaired lines are new.
    expect(transformer).toMatch(/^---\nsummary: A model\.\ntitle: Transformer\ntype: concept\nrefs: \[paper\]\nsources: \[raw\/paper\.md, raw\/gone\.md\]\ncreated: \d{4}-\d{2}-\d{2}\nupdated: 2026-01-15\n---\n/);
    expect(splitFrontmatter(transformer).body).toBe(splitFrontmatter(before['wiki/concepts/transformer.md'] ?? '').body);

    const log = parseLogEntries(after['wiki/log.md'] ?? '');
    expect(log.map((e) => `${e.op} | ${e.title}`)).toEqual(['init | workspace created', `lint | --fix applied ${first.changes.length} repairs`]);
    expect(log[1]?.date).toBe(isoDate());
    expect(after['wiki/log.md']?.startsWith(before['wiki/log.md'] ?? '')).toBe(true);

    const second = await lintWorkspace(root, schema, config, { fix: true });
    expect(second.changes).toEqual([]);
    expect(second.findings).toEqual(first.findings);
    expect(await snapshot(root)).toEqual(after);
  });

  it('--fix refuses to run while another run holds the workspace lock, writing nothing', async () => {
    const root = await workspace(MESSY);
    const before = await snapshot(root);
    const lock = await acquireLock(root, { command: 'ingest' });
    try {
      await expect(lintWorkspace(root, await loadSchema(root), config, { fix: true })).rejects.toBeInstanceOf(LockError);
    } finally {
      await lock.release();
    }
    expect(await snapshot(root)).toEqual(before);
    expect((await lintWorkspace(root, await loadSchema(root), config, { fix: true })).changes.length).toBeGreaterThan(0);
  });

  it('switches index.md to hub-and-spoke past the configured threshold', async () => {
    const root = await workspace(MESSY);
    const report = await lintWorkspace(root, await loadSchema(root), configSchema.parse({ index: { hubThreshold: 1 } }), { fix: true });
    expect(report.changes).toContain('wiki/index-concept.md: regenerated the spoke catalog');
    const files = await snapshot(root);
    expect(files['wiki/index.md']).toContain('- [[index-source]] — Sources: 1 page');
    expect(files['wiki/index-source.md']).toContain('- [[paper]] — The paper.');
    expect(report.findings.filter((f) => f.path.startsWith('wiki/index'))).toEqual([]);
  });
});
