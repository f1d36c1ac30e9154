import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, runCli } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, pageText, patchConfig, read, writeStep } from './cron-fixtures.js';

/** What the CLI says is what it did: no "saved" without a page, no advice already followed. */
const serve = fakeServers();

async function workspaceWithAlpha(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nThe first letter.\n');
  const server = await serve([writeStep('source', 'alpha'), { text: 'Done.' }]);
  const ingest = await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: server.env('anthropic') });
  expect(ingest.code, ingest.stderr).toBe(0);
  return root;
}

describe('messages tell the truth', () => {
  it('lint --fix --dry-run says nothing was written and reports the findings left after its planned repairs', async () => {
    const root = await workspaceWithAlpha();
    await writeFile(path.join(root, 'wiki/concepts/beta.md'), pageText('concept', 'beta', { sources: ['raw/alpha.md'], refs: ['alpha'] }));
    const before = await hashTree(root);
    const result = await runCli(['lint', '--fix', '--dry-run', '--no-llm'], { cwd: root });
    expect(result.stdout).toContain('dry run: nothing was written');
    expect(result.stdout).not.toMatch(/^unindexed/m);
    const json = JSON.parse((await runCli(['lint', '--fix', '--dry-run', '--no-llm', '--json'], { cwd: root })).stdout) as { findings: Array<{ rule: string }> };
    expect(json.findings.map((f) => f.rule)).not.toContain('unindexed');
    expect(await hashTree(root)).toEqual(before);
  });

  it('a lint --fix that leaves errors it cannot repair does not advise running lint --fix', async () => {
    const root = await workspaceWithAlpha();
    await writeFile(path.join(root, 'wiki/concepts/broken.md'), pageText('concept', 'broken', { sources: ['raw/alpha.md'], body: 'See [[nowhere]].' }));
    const fix = await runCli(['lint', '--fix', '--no-llm'], { cwd: root });
    expect(fix.code).toBe(1);
    expect(fix.stdout).not.toContain('lint --fix');
    // Nothing is left that a rule repairs: advising --fix --no-llm would promise what it then cannot do.
    const plain = await runCli(['lint', '--no-llm'], { cwd: root });
    expect(plain.stdout).not.toContain('lint --fix');
  });

  it('lint advises --fix --no-llm only with repairs to make, and says how many; the fix then applies exactly those', async () => {
    const root = await workspaceWithAlpha();
    const orphan = await runCli(['lint', '--no-llm', '--strict'], { cwd: root });
    expect(orphan.stdout).toMatch(/orphan/);
    expect(orphan.stdout).not.toContain('lint --fix');
    const index = path.join(root, 'wiki/index.md');
    await writeFile(index, (await read(root, 'wiki/index.md')).split('\n').filter((line) => !line.includes('[[alpha]]')).join('\n'));
    const advised = await runCli(['lint', '--no-llm', '--strict'], { cwd: root });
    expect(advised.stdout).toContain('run `wiki lint --fix --no-llm` to apply 1 safe repair');
    const fix = await runCli(['lint', '--fix', '--no-llm'], { cwd: root });
    expect(fix.stdout).toMatch(/Repaired \(1\):\n {2}✓ wiki\/index\.md: listed 1 unindexed page\n/);
  });

  it('--max-cost with a model that has no price says so before the run', async () => {
    const root = await workspaceWithAlpha();
    await patchConfig(root, { model: 'my-local-model' });
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nThe second letter.\n');
    const server = await serve([writeStep('source', 'beta'), { text: 'Done.' }]);
    const result = await runCli(['ingest', 'raw/beta.md', '--max-cost', '0.5'], { cwd: root, env: server.env('openai') });
    expect(result.stderr).toMatch(/--max-cost cannot be enforced: no price is known for my-local-model/);
  });

  it('a page written back to its own bytes is not listed as updated', async () => {
    const root = await workspaceWithAlpha();
    const original = await read(root, 'wiki/sources/alpha.md');
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nThe first letter, revised.\n');
    const server = await serve([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/alpha.md', content: original.replace('Notes on alpha.', 'Draft.') } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'wiki/sources/alpha.md', content: original } }] },
      { text: 'Nothing new after all.' },
    ]);
    const result = await runCli(['ingest', 'raw/alpha.md', '--json'], { cwd: root, env: server.env('anthropic') });
    const outcome = JSON.parse(result.stdout).ingested[0] as { updated: string[] };
    expect(outcome.updated).toEqual([]);
  });

  it('query --save says saved only when a page was written', async () => {
    const root = await workspaceWithAlpha();
    const server = await serve([{ text: 'I know nothing about that.' }]);
    // The question matches the alpha page (so the model is called), but the answer cites none.
    const result = await runCli(['query', 'what is alpha?', '--save'], { cwd: root, env: server.env('anthropic') });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/saved as/);
    expect(result.stdout).toMatch(/not saved: the answer cites no wiki page with sources/);
  });

  it('status lists sources changed or deleted since their last ingest, and those not ingested yet', async () => {
    const root = await workspaceWithAlpha();
    await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n');
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nChanged.\n');
    const changed = JSON.parse((await runCli(['status', '--json'], { cwd: root })).stdout) as { raw: { pending: string[]; changed: string[]; deleted: string[] } };
    expect(changed.raw).toMatchObject({ pending: ['raw/beta.md'], changed: ['raw/alpha.md'], deleted: [] });
    await rm(path.join(root, 'raw/alpha.md'));
    const text = await runCli(['status'], { cwd: root });
    expect(text.stdout).toMatch(/1 deleted since their last ingest: raw\/alpha\.md/);
    expect(text.stdout).toMatch(/1 not ingested yet: raw\/beta\.md/);
  });
});
