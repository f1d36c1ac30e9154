import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashTree, runCli, tempDir } from '../helpers/cli.js';
import { fakeServers, freshWorkspace, read, simpleIngest, writeStep } from './cron-fixtures.js';

/**
 * A clone is whatever its repository committed: links to files outside it, a crafted ingest
 * record. Made with real git, used through the built CLI.
 */

const serve = fakeServers();
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'M', GIT_AUTHOR_EMAIL: 'm@example.org', GIT_COMMITTER_NAME: 'M', GIT_COMMITTER_EMAIL: 'm@example.org' };
const SECRET = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV }).trim();
}

async function commitAll(root: string, message: string): Promise<void> {
  if (!existsSync(path.join(root, '.git'))) git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A', '-f');
  git(root, 'commit', '-qm', message);
}

async function cloneOf(origin: string): Promise<string> {
  const dir = path.join(await tempDir('wiki-clone-'), 'wiki');
  git(path.dirname(dir), 'clone', '-q', origin, dir);
  return dir;
}

/** Files outside any workspace, each with its own text, for the links to point at. */
async function outsideFiles(names: readonly string[]): Promise<Map<string, string>> {
  const dir = await tempDir('wiki-outside-');
  const files = new Map<string, string>();
  for (const name of names) {
    const file = path.join(dir, name.replace(/\//g, '_'));
    await writeFile(file, `${SECRET}(${name})\n`);
    files.set(name, file);
  }
  return files;
}

async function texts(files: Map<string, string>): Promise<string[]> {
  return Promise.all([...files.values()].map((file) => readFile(file, 'utf8')));
}

describe('wiki init --force in a clone whose workspace files are committed links to outside files', () => {
  it('refuses before writing anything: no outside file is overwritten, no link replaced', async () => {
    const origin = await freshWorkspace();
    const linked = ['schema.md', 'wiki/log.md', 'wiki.config.json', 'wiki/index.md'];
    const outside = await outsideFiles(linked);
    for (const name of linked) {
      await rm(path.join(origin, name));
      await symlink(outside.get(name) ?? '', path.join(origin, name));
    }
    await commitAll(origin, 'links');
    const clone = await cloneOf(origin);
    expect((await lstat(path.join(clone, 'schema.md'))).isSymbolicLink()).toBe(true);
    const before = await texts(outside);
    const tree = await hashTree(clone);

    const result = await runCli(['init', '--force', clone]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/is a symbolic link \(and 3 more/);
    expect(result.stderr).toMatch(/nothing was written/);
    expect(await texts(outside)).toEqual(before);
    expect(await hashTree(clone)).toEqual(tree);
  });

  it('a linked wiki/ folder is refused the same way: nothing is made inside the folder it points to', async () => {
    const origin = await freshWorkspace();
    const elsewhere = await tempDir('wiki-elsewhere-');
    await rm(path.join(origin, 'wiki'), { recursive: true });
    await symlink(elsewhere, path.join(origin, 'wiki'));
    await commitAll(origin, 'wiki is a link');
    const clone = await cloneOf(origin);
    const result = await runCli(['init', '--force', clone]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/wiki is a symbolic link/);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('good work: in a clone of regular files, --force rewrites the workspace files', async () => {
    const origin = await freshWorkspace();
    await writeFile(path.join(origin, 'schema.md'), 'changed by hand\n');
    await commitAll(origin, 'hand edit');
    const clone = await cloneOf(origin);
    const result = await runCli(['init', '--force', clone]);
    expect(result.code, result.stderr).toBe(0);
    expect(await read(clone, 'schema.md')).not.toBe('changed by hand\n');
    expect((await lstat(path.join(clone, 'schema.md'))).isFile()).toBe(true);
  });
});

describe('a clone that commits .wiki/sources.json and a .gitattributes linked to an outside file', () => {
  it('is not migrated through the link: the outside text is never copied in, and the command says what to fix', async () => {
    const origin = await freshWorkspace();
    const outside = await outsideFiles(['gitattributes']);
    const target = outside.get('gitattributes') ?? '';
    const legacy = { version: 1, sources: { 'raw/alpha.md': { sha256: 'a'.repeat(64), size: 3, ingestedAt: '2026-11-28T10:00:00.000Z', runId: 'run-1', pages: { created: ['wiki/sources/alpha.md'], updated: [] } } } };
    await mkdir(path.join(origin, '.wiki'), { recursive: true });
    await writeFile(path.join(origin, '.wiki/sources.json'), JSON.stringify(legacy));
    await rm(path.join(origin, 'wiki.sources.jsonl'), { force: true });
    await rm(path.join(origin, '.gitattributes'), { force: true });
    await symlink(target, path.join(origin, '.gitattributes'));
    await commitAll(origin, 'an older wiki, attributes linked');
    const clone = await cloneOf(origin);
    const before = await readFile(target, 'utf8');

    const status = await runCli(['status'], { cwd: clone });
    expect(status.code, status.stderr).toBe(2);
    expect(status.stderr).toMatch(/\.gitattributes.*symbolic link/);
    expect(status.stderr).not.toMatch(/unexpected/);
    expect(await readFile(target, 'utf8')).toBe(before);
    expect((await lstat(path.join(clone, '.gitattributes'))).isSymbolicLink()).toBe(true);
    for (const file of await listAll(clone)) expect(await readFile(path.join(clone, file), 'utf8').catch(() => ''), file).not.toContain('PRIVATE KEY');
    expect(existsSync(path.join(clone, 'wiki.sources.jsonl'))).toBe(false);
    expect(existsSync(path.join(clone, '.wiki/sources.json'))).toBe(true);

    // Good work: the link made a regular file again, the same clone migrates.
    await rm(path.join(clone, '.gitattributes'));
    await writeFile(path.join(clone, '.gitattributes'), '*.pdf binary\n');
    const again = await runCli(['status'], { cwd: clone });
    expect(again.code, again.stderr).toBe(0);
    expect(await read(clone, '.gitattributes')).toMatch(/^\*\.pdf binary\n[\s\S]*^wiki\/log\.md merge=union$/m);
    expect(existsSync(path.join(clone, 'wiki.sources.jsonl'))).toBe(true);
  });
});

describe('a clone whose committed ingest record names log.md and index.md as pages of a source', () => {
  it('stale marking leaves both alone and marks the source\'s real page; lint reports the record', async () => {
    const origin = await freshWorkspace();
    await writeFile(path.join(origin, 'raw/alpha.md'), '# Alpha\n\nThe first version.\n');
    const first = await serve([...simpleIngest('alpha').slice(0, 1), writeStep('concept', 'kept', { sources: ['raw/alpha.md'] }), { text: 'Done.' }]);
    expect((await runCli(['ingest', 'raw/alpha.md'], { cwd: origin, env: first.env('anthropic') })).code).toBe(0);
    const recordFile = path.join(origin, 'wiki.sources.jsonl');
    const crafted = (await readFile(recordFile, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const entry = JSON.parse(line) as { path: string; created: string[] };
        if (entry.path === 'raw/alpha.md') entry.created.push('wiki/log.md', 'wiki/index.md');
        return JSON.stringify(entry);
      });
    await writeFile(recordFile, `${crafted.join('\n')}\n`);
    await commitAll(origin, 'crafted record');
    const clone = await cloneOf(origin);

    const lint = await runCli(['lint', '--json'], { cwd: clone });
    const findings = (JSON.parse(lint.stdout) as { findings: Array<{ rule: string; path: string; message: string }> }).findings.filter((f) => f.rule === 'source-record');
    expect(findings).toEqual([expect.objectContaining({ path: 'wiki.sources.jsonl', message: expect.stringMatching(/raw\/alpha\.md names wiki\/index\.md, wiki\/log\.md among its pages/) })]);

    await writeFile(path.join(clone, 'raw/alpha.md'), '# Alpha\n\nThe second version.\n');
    const second = await serve(simpleIngest('alpha', { body: 'Rewritten.' }));
    const ingest = await runCli(['ingest', 'raw/alpha.md'], { cwd: clone, env: second.env('anthropic') });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(await read(clone, 'wiki/log.md')).not.toContain('stale_since');
    expect(await read(clone, 'wiki/index.md')).not.toContain('stale_since');
    // Good work: the page the source produced and the run did not rewrite is marked.
    expect(await read(clone, 'wiki/concepts/kept.md')).toMatch(/^stale_since: /m);
  });

  it('good work: an honest record draws no source-record finding', async () => {
    const root = await freshWorkspace();
    await writeFile(path.join(root, 'raw/alpha.md'), '# Alpha\n\nText.\n');
    const first = await serve(simpleIngest('alpha'));
    expect((await runCli(['ingest', 'raw/alpha.md'], { cwd: root, env: first.env('anthropic') })).code).toBe(0);
    const lint = await runCli(['lint', '--json'], { cwd: root });
    expect((JSON.parse(lint.stdout) as { findings: Array<{ rule: string }> }).findings.filter((f) => f.rule === 'source-record')).toEqual([]);
  });
});

async function listAll(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && !entry.parentPath.includes(`${path.sep}.git`)).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}
