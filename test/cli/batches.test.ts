import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import type { RecordedRequest, ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers, freshWorkspace, manifestSources } from './cron-fixtures.js';

const serve = fakeServers();

/** A model that writes one source page for whichever source its run was given. */
function diligentModel(request: RecordedRequest): ScriptStep {
  const rawPath = /Ingest the source `(raw\/[^`]+)`/.exec(request.lastUserText ?? '')?.[1] ?? 'raw/unknown.md';
  if (request.toolResults.length > 0) return { text: `Ingested ${rawPath}.` };
  const key = path.basename(rawPath).replace(/\.[a-z]+$/, '').toLowerCase();
  const content = `---\ntitle: ${key}\nsummary: Notes on ${key}.\nsources: [${rawPath}]\n---\n\nNotes on ${key}.\n`;
  return { toolCalls: [{ name: 'write_file', arguments: { path: `wiki/sources/${key}.md`, content } }] };
}

describe('a batch loses nothing', () => {
  it('ingests two inputs with the same file name as README.md and README-2.md', async () => {
    const root = await freshWorkspace();
    const outside = await tempDir('wiki-batch-');
    for (const project of ['one', 'two']) {
      await mkdir(path.join(outside, project));
      await writeFile(path.join(outside, project, 'README.md'), `# Project ${project}\n\nWhat ${project} does.\n`);
    }
    const server = await serve(diligentModel);
    const result = await runCli(['ingest', path.join(outside, 'one/README.md'), path.join(outside, 'two/README.md'), '--json'], { cwd: root, env: server.env('anthropic') });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { ingested: Array<{ source: string; status: string; copiedFrom: string }> };
    expect(report.ingested.map((s) => [s.source, s.status, path.relative(outside, s.copiedFrom)])).toEqual([
      ['raw/README.md', 'done', 'one/README.md'],
      ['raw/README-2.md', 'done', 'two/README.md'],
    ]);
    expect((await manifestSources(root)).sort()).toEqual(['raw/README-2.md', 'raw/README.md']);
  });

  it('reports and skips a binary file and a link out of the workspace, ingests the rest, exits 1, and the next run still goes on', async () => {
    const root = await freshWorkspace();
    const outside = await tempDir('wiki-batch-');
    await writeFile(path.join(outside, 'secret.md'), 'outside the workspace\n');
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nA source.\n');
    await writeFile(path.join(root, 'raw/image.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2, 3]));
    await symlink(path.join(outside, 'secret.md'), path.join(root, 'raw/linked.md'));
    await writeFile(path.join(root, 'raw/zeta.md'), '# Zeta\n\nAnother source.\n');

    const server = await serve(diligentModel);
    const first = await runCli(['ingest', 'raw/', '--json'], { cwd: root, env: server.env('anthropic') });
    expect(first.code).toBe(1);
    const report = JSON.parse(first.stdout) as { ingested: Array<{ source: string; status: string }>; skipped: Array<{ source: string; reason: string }> };
    expect(report.ingested.map((s) => [s.source, s.status])).toEqual([
      ['raw/alpha.md', 'done'],
      ['raw/zeta.md', 'done'],
    ]);
    expect(report.skipped.map((s) => s.source)).toEqual(['raw/image.md', 'raw/linked.md']);
    expect(report.skipped[1]?.reason).toMatch(/symbolic link to a file outside the workspace/);
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain('outside the workspace\\n');

    await writeFile(path.join(root, 'raw/omega.md'), '# Omega\n\nA third source.\n');
    const second = await runCli(['ingest', 'raw/'], { cwd: root, env: server.env('anthropic') });
    expect(second.code).toBe(1);
    expect(second.stdout).toMatch(/raw\/image\.md skipped/);
    expect((await manifestSources(root)).sort()).toEqual(['raw/alpha.md', 'raw/omega.md', 'raw/zeta.md']);
  });
});
