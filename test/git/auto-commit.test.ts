import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoCommit, committableFiles } from '../../src/git/auto-commit.js';

/** Keep the developer's own git configuration and identity out of these tests. */
const ISOLATED_ENV = {
  GIT_CONFIG_GLOBAL: '',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: undefined,
  GIT_AUTHOR_EMAIL: undefined,
  GIT_COMMITTER_NAME: undefined,
  GIT_COMMITTER_EMAIL: undefined,
  EMAIL: undefined,
  GIT_DIR: undefined,
  GIT_WORK_TREE: undefined,
  GIT_INDEX_FILE: undefined,
};
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  const emptyConfig = path.join(await mkdtemp(path.join(os.tmpdir(), 'wiki-git-home-')), 'gitconfig');
  await writeFile(emptyConfig, '');
  for (const [name, value] of Object.entries({ ...ISOLATED_ENV, GIT_CONFIG_GLOBAL: emptyConfig })) {
    saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function run(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
}

async function put(root: string, file: string, content: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), content);
}

/** A real repository with an identity configured in it (only there) and one commit. */
async function repository(options: { identity?: boolean; initialCommit?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wiki-git-'));
  run(dir, 'init', '--quiet', '--initial-branch=main');
  if (options.identity !== false) {
    run(dir, 'config', 'user.name', 'Test Person');
    run(dir, 'config', 'user.email', 'test@example.org');
  }
  if (options.initialCommit !== false) {
    await put(dir, 'notes.txt', 'notes\n');
    await put(dir, 'wiki/index.md', '# Index\n');
    await put(dir, 'wiki/log.md', '# Log\n');
    run(dir, 'add', '.');
    run(dir, '-c', 'user.name=Setup', '-c', 'user.email=setup@example.org', 'commit', '--quiet', '-m', 'initial');
  }
  return dir;
}

const head = (dir: string): string => run(dir, 'rev-parse', 'HEAD').trim();
const committedFiles = (dir: string, rev = 'HEAD'): string[] =>
  run(dir, 'show', '--name-status', '--format=', rev).trim().split('\n').filter(Boolean).sort();
const subject = (dir: string): string => run(dir, 'log', '-1', '--format=%B').trim();
const porcelain = (dir: string): string[] => run(dir, 'status', '--porcelain=v1', '-z', '--untracked-files=all').split('\0').filter(Boolean).sort();

const MESSAGE = '## [2026-11-21] ingest | Attention is all you need';

describe('autoCommit', () => {
  it('commits exactly the listed files with the message and leaves unrelated changes alone', async () => {
    const repo = await repository();
    await put(repo, 'wiki/concepts/attention.md', '# Attention\n');
    await put(repo, 'wiki/index.md', '# Index\n- [[attention]]\n');
    await put(repo, 'wiki/log.md', `# Log\n${MESSAGE}\n`);
    await put(repo, 'notes.txt', 'my unsaved thoughts\n');
    await put(repo, 'scratch.txt', 'untracked\n');

    const result = await autoCommit(repo, { files: ['wiki/concepts/attention.md', 'wiki/index.md', 'wiki/log.md'], message: MESSAGE });

    expect(result).toEqual({ status: 'committed', commit: head(repo), files: ['wiki/concepts/attention.md', 'wiki/index.md', 'wiki/log.md'] });
    expect(subject(repo)).toBe(MESSAGE);
    expect(committedFiles(repo)).toEqual(['A\twiki/concepts/attention.md', 'M\twiki/index.md', 'M\twiki/log.md']);
    expect(porcelain(repo)).toEqual([' M notes.txt', '?? scratch.txt']);
    expect(run(repo, 'log', '-1', '--format=%an <%ae>').trim()).toBe('Test Person <test@example.org>');
  });

  it('skips with a reason when the index has unrelated staged changes, and stages nothing', async () => {
    const repo = await repository();
    const before = head(repo);
    await put(repo, 'notes.txt', 'staged by the user\n');
    run(repo, 'add', 'notes.txt');
    await put(repo, 'wiki/concepts/attention.md', '# Attention\n');

    const result = await autoCommit(repo, { files: ['wiki/concepts/attention.md'], message: MESSAGE });

    expect(result.status).toBe('skipped');
    expect(result).toMatchObject({ reason: expect.stringMatching(/unrelated staged changes \(notes\.txt\)/) });
    expect(head(repo)).toBe(before);
    expect(run(repo, 'diff', '--cached', '--name-only').trim()).toBe('notes.txt');
    expect(porcelain(repo)).toContain('?? wiki/concepts/attention.md');
  });

  it('commits a listed file the user had already staged', async () => {
    const repo = await repository();
    await put(repo, 'wiki/index.md', '# Index, staged\n');
    run(repo, 'add', 'wiki/index.md');
    const result = await autoCommit(repo, { files: ['wiki/index.md'], message: MESSAGE });
    expect(result.status).toBe('committed');
    expect(committedFiles(repo)).toEqual(['M\twiki/index.md']);
  });

  it('never commits .wiki/, even when it is not git-ignored', async () => {
    const repo = await repository();
    await put(repo, '.wiki/runs/run-1.jsonl', '{}\n');
    await put(repo, '.wiki/search/index.json', '{}\n');
    await put(repo, 'wiki/concepts/a.md', '# A\n');

    const result = await autoCommit(repo, { files: ['.wiki/runs/run-1.jsonl', './.wiki/search/index.json', 'wiki/concepts/a.md'], message: MESSAGE });

    expect(result).toMatchObject({ status: 'committed', files: ['wiki/concepts/a.md'] });
    expect(committedFiles(repo)).toEqual(['A\twiki/concepts/a.md']);
    expect(porcelain(repo)).toEqual(['?? .wiki/runs/run-1.jsonl', '?? .wiki/search/index.json']);
    expect(await autoCommit(repo, { files: ['.wiki/runs/run-1.jsonl'], message: MESSAGE })).toEqual({ status: 'skipped', reason: 'no files to commit' });
  });

  it('commits a deleted file as a deletion', async () => {
    const repo = await repository();
    await put(repo, 'wiki/concepts/old.md', '# Old\n');
    run(repo, 'add', 'wiki/concepts/old.md');
    run(repo, 'commit', '--quiet', '-m', 'add old');
    await rm(path.join(repo, 'wiki/concepts/old.md'));
    await put(repo, 'wiki/index.md', '# Index without old\n');

    const result = await autoCommit(repo, { files: ['wiki/concepts/old.md', 'wiki/index.md'], message: MESSAGE });

    expect(result).toMatchObject({ status: 'committed', files: ['wiki/concepts/old.md', 'wiki/index.md'] });
    expect(committedFiles(repo)).toEqual(['D\twiki/concepts/old.md', 'M\twiki/index.md']);
    expect(run(repo, 'ls-files', 'wiki/concepts').trim()).toBe('');
    expect(porcelain(repo)).toEqual([]);
  });

  it('maps paths when the workspace is a subfolder of the repository', async () => {
    const repo = await repository();
    const root = path.join(repo, 'research', 'my wiki');
    await put(root, 'wiki/concepts/a.md', '# A\n');
    await put(root, '.wiki/runs/r.jsonl', '{}\n');
    await put(repo, 'wiki/concepts/a.md', '# same key at the repository top: not ours\n');

    const result = await autoCommit(root, { files: ['wiki/concepts/a.md', '.wiki/runs/r.jsonl'], message: MESSAGE });

    expect(result).toMatchObject({ status: 'committed', files: ['wiki/concepts/a.md'] });
    expect(committedFiles(repo)).toEqual(['A\tresearch/my wiki/wiki/concepts/a.md']);
    expect(porcelain(repo)).toEqual(['?? research/my wiki/.wiki/runs/r.jsonl', '?? wiki/concepts/a.md']);
  });

  it('in a subfolder workspace, still refuses when something elsewhere in the repository is staged', async () => {
    const repo = await repository();
    const root = path.join(repo, 'research');
    await put(root, 'wiki/concepts/a.md', '# A\n');
    await put(repo, 'notes.txt', 'changed\n');
    run(repo, 'add', 'notes.txt');
    const result = await autoCommit(root, { files: ['wiki/concepts/a.md'], message: MESSAGE });
    expect(result).toMatchObject({ status: 'skipped', reason: expect.stringContaining('notes.txt') });
  });

  it('skips outside a git work tree', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'wiki-nogit-'));
    await put(dir, 'wiki/concepts/a.md', '# A\n');
    expect(await autoCommit(dir, { files: ['wiki/concepts/a.md'], message: MESSAGE })).toEqual({
      status: 'skipped',
      reason: 'not inside a git work tree',
    });
  });

  it('skips when none of the files has a change', async () => {
    const repo = await repository();
    const before = head(repo);
    const result = await autoCommit(repo, { files: ['wiki/index.md', 'wiki/log.md'], message: MESSAGE });
    expect(result).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/none of the changed files differs/) });
    expect(head(repo)).toBe(before);
  });

  it('skips git-ignored files and commits the rest', async () => {
    const repo = await repository();
    await put(repo, '.gitignore', 'wiki/private/\n');
    run(repo, 'add', '.gitignore');
    run(repo, 'commit', '--quiet', '-m', 'ignore');
    await put(repo, 'wiki/private/secret.md', '# Secret\n');
    await put(repo, 'wiki/concepts/a.md', '# A\n');

    const result = await autoCommit(repo, { files: ['wiki/private/secret.md', 'wiki/concepts/a.md'], message: MESSAGE });
    expect(result).toMatchObject({ status: 'committed', files: ['wiki/concepts/a.md'] });

    const onlyIgnored = await autoCommit(repo, { files: ['wiki/private/secret.md'], message: MESSAGE });
    expect(onlyIgnored.status).toBe('skipped');
  });

  it('treats file names literally (spaces, brackets, globs)', async () => {
    const repo = await repository();
    await put(repo, 'wiki/concepts/a [draft]*.md', 'listed\n');
    await put(repo, 'wiki/concepts/a d.md', 'not listed; a glob would match it\n');
    const result = await autoCommit(repo, { files: ['wiki/concepts/a [draft]*.md'], message: MESSAGE });
    expect(result).toMatchObject({ status: 'committed', files: ['wiki/concepts/a [draft]*.md'] });
    expect(committedFiles(repo)).toEqual(['A\twiki/concepts/a [draft]*.md']);
    expect(porcelain(repo)).toEqual(['?? wiki/concepts/a d.md']);
  });

  it('uses a fallback identity for this commit only when the repository has none', async () => {
    const repo = await repository({ identity: false, initialCommit: false });
    await put(repo, 'wiki/concepts/a.md', '# A\n');
    const result = await autoCommit(repo, { files: ['wiki/concepts/a.md'], message: MESSAGE });
    expect(result.status).toBe('committed');
    expect(run(repo, 'log', '-1', '--format=%an <%ae>|%cn <%ce>').trim()).toBe('wiki <wiki@localhost>|wiki <wiki@localhost>');
    expect(() => run(repo, 'config', 'user.name')).toThrow();
    expect(() => run(repo, 'config', 'user.email')).toThrow();
  });

  it('reports a failed commit (a rejecting hook) as a skip and unstages what it staged', async () => {
    const repo = await repository();
    const hook = path.join(repo, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, '#!/bin/sh\necho "lint says no" >&2\nexit 1\n');
    await chmod(hook, 0o755);
    const before = head(repo);
    await put(repo, 'wiki/concepts/a.md', '# A\n');

    const result = await autoCommit(repo, { files: ['wiki/concepts/a.md'], message: MESSAGE });

    expect(result).toEqual({ status: 'skipped', reason: 'git commit failed: lint says no' });
    expect(head(repo)).toBe(before);
    expect(run(repo, 'diff', '--cached', '--name-only').trim()).toBe('');
  });

  it('skips when git is not installed', async () => {
    const repo = await repository();
    await put(repo, 'wiki/concepts/a.md', '# A\n');
    const savedPath = process.env.PATH;
    process.env.PATH = await mkdtemp(path.join(os.tmpdir(), 'wiki-empty-path-'));
    try {
      expect(await autoCommit(repo, { files: ['wiki/concepts/a.md'], message: MESSAGE })).toEqual({ status: 'skipped', reason: 'git is not installed' });
    } finally {
      process.env.PATH = savedPath;
    }
  });
});

describe('committableFiles', () => {
  it.each([
    [['wiki/a.md', './wiki/a.md', 'wiki//a.md'], ['wiki/a.md']],
    [['wiki\\concepts\\b.md'], ['wiki/concepts/b.md']],
    [['.wiki/lock', '.wiki', '.git/config', 'wiki/.wiki-notes.md'], ['wiki/.wiki-notes.md']],
    [['../outside.md', '/etc/passwd', 'C:/x.md', 'wiki/../../up.md', '', '.'], []],
    [['wiki/x/../y.md'], ['wiki/y.md']],
  ])('%j → %j', (input, expected) => {
    expect(committableFiles(input)).toEqual(expected);
  });
});
