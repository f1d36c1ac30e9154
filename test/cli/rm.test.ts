import { access, appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastRun } from '../../src/state/history.js';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer, type ScriptStep } from '../helpers/fake-llm-server.js';
import { freshWorkspace, listFiles, pagePath, pageText, type PageSpec } from './cron-fixtures.js';

/**
 * `wiki rm`: a source and what rests on it go, and the wiki stays valid — a page drawing only
 * on it is removed (kept and archived when a person wrote in it), a page drawing on others
 * too loses it and lists the sentences that cited only it, links to removed pages become
 * plain text — and `wiki undo` puts every byte back.
 */

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const write = (type: 'source' | 'concept', key: string, spec: PageSpec): ScriptStep => ({
  toolCalls: [{ name: 'write_file', arguments: { path: pagePath(type, key), content: pageText(type, key, spec) } }],
});

async function ingest(root: string, source: string, steps: ScriptStep[]): Promise<void> {
  server = await startFakeLlmServer([...steps, { text: 'Done.' }]);
  const result = await runCli(['ingest', source], { cwd: root, env: server.env('anthropic') });
  expect(result.code, result.stderr + result.stdout).toBe(0);
  await server.close();
  server = undefined;
}

async function twoSourceWiki(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nAlpha harbours hold twelve ships.\nAlpha ships sail north.\n');
  await writeFile(path.join(root, 'raw/beta.md'), '# Beta\n\nBeta harbours hold four ships.\n');
  await ingest(root, 'raw/alpha.md', [
    write('source', 'alpha', { body: 'Alpha harbours hold twelve ships. <!-- from: raw/alpha.md#L3 -->' }),
    write('concept', 'alpha-fleet', { sources: ['raw/alpha.md'], body: 'Alpha ships sail north. <!-- from: raw/alpha.md#L4 -->' }),
  ]);
  await ingest(root, 'raw/beta.md', [
    write('source', 'beta', { body: 'Beta harbours hold four ships. <!-- from: raw/beta.md#L3 -->' }),
    write('concept', 'harbours', {
      sources: ['raw/alpha.md', 'raw/beta.md'],
      refs: ['alpha-fleet'],
      body: [
        'Alpha harbours hold twelve ships. <!-- from: raw/alpha.md#L3 -->',
        '',
        'Beta harbours hold four ships. <!-- from: raw/beta.md#L3 -->',
        '',
        'See [[alpha-fleet]] and [[alpha-fleet|the northern fleet]].',
      ].join('\n'),
    }),
  ]);
  // A person adds a line to the alpha source page.
  await appendFile(path.join(root, pagePath('source', 'alpha')), '\nMy own note: check the 1910 harbour records.\n');
  return root;
}

async function snapshot(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of await listFiles(root)) {
    if (file.startsWith('.wiki/') || file.startsWith('.git/')) continue;
    files.set(file, await readFile(path.join(root, file), 'utf8'));
  }
  return files;
}

describe('wiki rm', () => {
  it('--dry-run shows the plan and changes nothing', async () => {
    const root = await twoSourceWiki();
    const before = await snapshot(root);
    const result = await runCli(['rm', 'raw/alpha.md', '--dry-run'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/wiki\/concepts\/alpha-fleet\.md would be removed/);
    expect(result.stdout).toMatch(/wiki\/sources\/alpha\.md would be kept and marked archived_since: a person wrote lines in it/);
    expect(result.stdout).toMatch(/wiki\/concepts\/harbours\.md would be updated/);
    expect(result.stdout).toMatch(/line \d+: "Alpha harbours hold twelve ships\." cited only removed sources/);
    expect(await snapshot(root)).toEqual(before);
  });

  it('removes the source and what rests only on it, keeps a person\'s page, trims shared pages; lint has no error; undo restores every byte', async () => {
    const root = await twoSourceWiki();
    const before = await snapshot(root);
    const result = await runCli(['rm', 'raw/alpha.md'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    await expect(access(path.join(root, 'raw/alpha.md'))).rejects.toThrow();
    await expect(access(path.join(root, pagePath('concept', 'alpha-fleet')))).rejects.toThrow();
    const kept = await readFile(path.join(root, pagePath('source', 'alpha')), 'utf8');
    expect(kept).toMatch(/archived_since: \d{4}-\d{2}-\d{2}/);
    expect(kept).toContain('My own note: check the 1910 harbour records.');
    const shared = await readFile(path.join(root, pagePath('concept', 'harbours')), 'utf8');
    expect(shared).toContain('sources: [raw/beta.md]');
    expect(shared).not.toContain('raw/alpha.md');
    expect(shared).not.toMatch(/refs:.*alpha-fleet/);
    expect(shared).toContain('See alpha fleet and the northern fleet.');
    expect(shared).toContain('Alpha harbours hold twelve ships.');
    expect(await readFile(path.join(root, 'wiki.sources.jsonl'), 'utf8')).not.toContain('raw/alpha.md');
    const log = await readFile(path.join(root, 'wiki/log.md'), 'utf8');
    expect(log.match(/\| raw\/alpha\.md/g)?.length).toBeGreaterThanOrEqual(1);
    expect(log).toMatch(/## \[\d{4}-\d{2}-\d{2}\] rm \| raw\/alpha\.md/);
    const lint = await runCli(['lint', '--no-llm', '--json'], { cwd: root });
    const report = JSON.parse(lint.stdout) as { errors: number; findings: Array<{ rule: string; severity: string; message: string }> };
    expect(report.findings.filter((f) => f.severity === 'error'), JSON.stringify(report.findings)).toEqual([]);
    const facts = await runCli(['facts', 'search', 'twelve ships', '--json'], { cwd: root });
    expect(facts.stdout).not.toContain('raw/alpha.md');

    const undo = await runCli(['undo', '--yes'], { cwd: root });
    expect(undo.code, undo.stderr + undo.stdout).toBe(0);
    const after = await snapshot(root);
    for (const [file, text] of before) if (file !== 'wiki/log.md') expect(after.get(file), file).toBe(text);
  });

  it('--prune removes the sentences that cited only the removed source', async () => {
    const root = await twoSourceWiki();
    const result = await runCli(['rm', 'raw/alpha.md', '--prune'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const shared = await readFile(path.join(root, pagePath('concept', 'harbours')), 'utf8');
    expect(shared).not.toContain('Alpha harbours hold twelve ships.');
    expect(shared).toContain('Beta harbours hold four ships.');
  });

  it('refuses a path outside raw/ or naming nothing, changing nothing (exit 2)', async () => {
    const root = await twoSourceWiki();
    const before = await snapshot(root);
    const outside = await runCli(['rm', 'wiki/index.md'], { cwd: root });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/not under raw\//);
    const nothing = await runCli(['rm', 'raw/nope.md'], { cwd: root });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/names no source in raw\//);
    expect(await snapshot(root)).toEqual(before);
  });
});

describe('wiki rm and undo, attacked', () => {
  it('undo never replaces a file someone put in raw/ at a removed source\'s path since', async () => {
    const root = await twoSourceWiki();
    expect((await runCli(['rm', 'raw/alpha.md'], { cwd: root })).code).toBe(0);
    await writeFile(path.join(root, 'raw/alpha.md'), 'A new alpha, written since.\n');
    const undo = await runCli(['undo', '--yes', '--force'], { cwd: root });
    expect(undo.code, undo.stderr + undo.stdout).toBe(0);
    expect(await readFile(path.join(root, 'raw/alpha.md'), 'utf8')).toBe('A new alpha, written since.\n');
  });

  it('a crafted history of another kind of run naming raw/ is still refused', async () => {
    const root = await twoSourceWiki();
    // The run undo will take: two runs in one second share an id prefix, so their names do not order them.
    const last = (await lastRun(root))?.runId as string;
    const recordFile = path.join(root, '.wiki/history', last, 'run.json');
    const record = JSON.parse(await readFile(recordFile, 'utf8')) as { op: string; files: Array<{ path: string }> };
    expect(record.op).toBe('ingest');
    record.files.push({ ...(record.files[0] as object), path: 'raw/planted.md' } as { path: string });
    await writeFile(recordFile, JSON.stringify(record));
    const undo = await runCli(['undo', '--yes'], { cwd: root });
    expect(undo.code).toBe(2);
    expect(undo.stderr).toMatch(/names raw\/planted\.md, which no run writes/);
  });
});
