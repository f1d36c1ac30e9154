import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/errors.js';
import { resolveForRead, resolveForWrite, resolveInSandbox } from '../../src/tools/sandbox.js';
import { call, makeContext, makeWorkspace, SECRET, snapshotTree, type TempWorkspace } from './fixtures.js';

/**
 * The sandbox is the one thing between a model (or a hostile source instructing it) and the
 * user's disk. Every attempt below must be refused, through the resolver and through the
 * tools, and must leave the whole temp folder — workspace and its `outside/` sibling —
 * exactly as it was.
 */

let ws: TempWorkspace;
let linkedRoot: string;

beforeAll(async () => {
  ws = await makeWorkspace();
  const { root, outside } = ws;
  const link = (target: string, at: string) => symlink(target, path.join(root, at));
  await link(path.join(outside, 'secret.txt'), 'raw/out-file.md');
  await link(outside, 'raw/out-dir');
  await link(path.join(outside, 'nope.md'), 'raw/dangling.md');
  await link('../.env', 'raw/env-link.md');
  await link('../.git', 'raw/git-link');
  await link(path.join(outside, 'created-by-write.md'), 'wiki/dangling-out.md');
  await link(outside, 'wiki/linked-dir');
  await link('../raw/paper.md', 'wiki/to-raw.md');
  await link('../raw', 'wiki/raw-dir');
  await link('/nonexistent-wiki-test-dir/x.md', 'wiki/abs-dangling.md');
  await link('loop-b.md', 'wiki/loop-a.md');
  await link('loop-a.md', 'wiki/loop-b.md');
  await link('chain2.md', 'wiki/chain.md');
  await link(path.join(outside, 'chain-target.md'), 'wiki/chain2.md');
  await link('../.wiki/state.json', 'wiki/dotwiki-link.md');
  await link('../schema.md', 'wiki/schema-link.md');
  await link('../wiki/concepts/attention.md', 'raw/inside-link.md');
  await link('concepts/attention.md', 'wiki/alias.md');
  await link('nowhere.md', 'wiki/dangling-inside.md');
  await mkdir(path.join(root, 'raw/notes'), { recursive: true });
  await writeFile(path.join(root, 'raw/.hidden-note.md'), 'hidden but not secret\n');
  linkedRoot = path.join(ws.base, 'linked-root');
  await symlink(root, linkedRoot);
});

afterAll(async () => {
  await ws.cleanup();
});

const readEscapes: Array<[string, string]> = [
  ['absolute POSIX path', '/etc/passwd'],
  ['absolute path to a file inside the root', '<root>/raw/paper.md'],
  ['Windows drive path', 'C:/Windows/win.ini'],
  ['Windows drive-relative path', 'c:secret.txt'],
  ['Windows path with backslashes', 'C:\\Windows\\win.ini'],
  ['UNC path', '\\\\server\\share\\secret.txt'],
  ['UNC path with slashes', '//server/share/secret.txt'],
  ['home directory', '~/.ssh/id_rsa'],
  ['parent of the root', '../outside/secret.txt'],
  ['.. after a folder', 'raw/../../outside/secret.txt'],
  ['.. back into the root', 'wiki/../raw/paper.md'],
  ['bare wiki/../..', 'wiki/../..'],
  ['percent-encoded ..', 'raw/%2e%2e/%2e%2e/outside/secret.txt'],
  ['double percent-encoded ..', 'raw/%252e%252e/%252e%252e/outside/secret.txt'],
  ['percent-encoded separator', 'raw/..%2f..%2foutside/secret.txt'],
  ['backslash ..', 'raw\\..\\..\\outside\\secret.txt'],
  ['full-width dots', 'raw/．．/．．/outside/secret.txt'],
  ['dots with trailing space (Windows)', 'raw/.. /outside/secret.txt'],
  ['NUL byte', 'raw/paper.md\u0000.txt'],
  ['newline in the path', 'raw/paper.md\n../../outside/secret.txt'],
  ['empty path', ''],
  ['blank path', '   '],
  ['symlinked file leading outside', 'raw/out-file.md'],
  ['file inside a symlinked folder leading outside', 'raw/out-dir/secret.txt'],
  ['dangling symlink leading outside', 'raw/dangling.md'],
  ['.env at the root', '.env'],
  ['.env.local', '.env.local'],
  ['nested .env', 'raw/sub/.env'],
  ['.env in another case', '.ENV'],
  ['.env with a trailing dot (Windows)', '.env.'],
  ['.git/config', '.git/config'],
  ['.git itself', '.git'],
  ['.wiki state', '.wiki/state.json'],
  ['node_modules', 'node_modules/pkg/index.js'],
  ['symlink to .env', 'raw/env-link.md'],
  ['symlinked folder leading to .git', 'raw/git-link/config'],
  ['symlink loop', 'wiki/loop-a.md'],
];

const writeEscapes: Array<[string, string]> = [
  ['new file in raw/', 'raw/new.md'],
  ['overwrite a source', 'raw/paper.md'],
  ['schema.md', 'schema.md'],
  ['wiki.config.json', 'wiki.config.json'],
  ['a new top-level file', 'notes.md'],
  ['.wiki/', '.wiki/x.md'],
  ['.git/', '.git/hooks/pre-commit.md'],
  ['.env under wiki/', 'wiki/.env'],
  ['hidden folder under wiki/', 'wiki/.obsidian/workspace.md'],
  ['the wiki folder itself', 'wiki'],
  ['absolute path outside', '/tmp/wiki-sandbox-escape.md'],
  ['absolute path to a page inside', '<root>/wiki/concepts/abs.md'],
  ['.. out of wiki/ into raw/', 'wiki/../raw/x.md'],
  ['.. out of the root', 'wiki/../../outside/x.md'],
  ['percent-encoded .. out of wiki/', 'wiki/%2e%2e/raw/x.md'],
  ['backslash .. out of wiki/', 'wiki\\..\\raw\\x.md'],
  ['NUL byte', 'wiki/x.md\u0000'],
  ['symlink in wiki/ pointing into raw/', 'wiki/to-raw.md'],
  ['symlinked folder in wiki/ pointing into raw/', 'wiki/raw-dir/new.md'],
  ['dangling symlink in wiki/ leading outside', 'wiki/dangling-out.md'],
  ['dangling symlink with an absolute target', 'wiki/abs-dangling.md'],
  ['chain of links ending outside', 'wiki/chain.md'],
  ['symlinked folder in wiki/ leading outside', 'wiki/linked-dir/new.md'],
  ['symlink in wiki/ to .wiki state', 'wiki/dotwiki-link.md'],
  ['symlink in wiki/ to schema.md', 'wiki/schema-link.md'],
  ['symlink loop in wiki/', 'wiki/loop-a.md'],
];

function expand(p: string): string {
  return p.replace('<root>', ws.root);
}

describe('sandbox: reads that must be refused', () => {
  it.each(readEscapes)('%s (%j)', async (_name, requested) => {
    const before = await snapshotTree(ws.base);
    await expect(resolveForRead(ws.root, expand(requested))).rejects.toBeInstanceOf(SandboxError);
    const { tools } = makeContext(ws);
    const read = await call(tools, 'read_file', { path: expand(requested) });
    expect(read.isError).toBe(true);
    expect(read.content).not.toContain(SECRET);
    const listed = await call(tools, 'list_directory', { path: expand(requested) });
    expect(listed.content).not.toContain(SECRET);
    expect(await snapshotTree(ws.base)).toEqual(before);
  });
});

describe('sandbox: writes that must be refused', () => {
  it.each(writeEscapes)('%s (%j)', async (_name, requested) => {
    const before = await snapshotTree(ws.base);
    await expect(resolveForWrite(ws.root, expand(requested))).rejects.toBeInstanceOf(SandboxError);
    const { tools, ports } = makeContext(ws);
    const content = '---\ntitle: Escape\nsummary: should never land\n---\n\nEscaped.\n';
    const written = await call(tools, 'write_file', { path: expand(requested), content });
    const appended = await call(tools, 'append_to_file', { path: expand(requested), content: 'appended\n' });
    expect(written.isError).toBe(true);
    expect(appended.isError).toBe(true);
    expect(ports.upserts).toEqual([]);
    expect(ports.events).toEqual([]);
    expect(await snapshotTree(ws.base)).toEqual(before);
  });

  it('has at least 30 escape attempts in all', () => {
    expect(readEscapes.length + writeEscapes.length).toBeGreaterThanOrEqual(30);
  });
});

describe('sandbox: refusals tell the model what is allowed', () => {
  it.each([
    ['/etc/passwd', 'read', /absolute paths are not allowed.*relative to the workspace root/],
    ['raw/../../x', 'read', /"\.\." is not allowed/],
    ['raw\\x.md', 'read', /backslashes/],
    ['.env', 'read', /secrets/],
    ['.git/config', 'read', /\.git\/ is version-control state/],
    ['raw/out-file.md', 'read', /leads outside the workspace/],
    ['raw/new.md', 'write', /raw\/ holds the sources and is read-only.*only under wiki\//],
    ['schema.md', 'write', /schema\.md is read-only to the model/],
    ['wiki/to-raw.md', 'write', /symbolic link to raw\/paper\.md.*read-only/],
  ] as const)('%s (%s)', async (requested, mode, message) => {
    await expect(resolveInSandbox(ws.root, requested, mode)).rejects.toThrow(message);
  });
});

describe('sandbox: allowed paths', () => {
  const reads: Array<[string, string]> = [
    ['raw/paper.md', 'raw/paper.md'],
    ['schema.md', 'schema.md'],
    ['wiki/index.md', 'wiki/index.md'],
    ['./raw//paper.md', 'raw/paper.md'],
    ['raw/notes/', 'raw/notes'],
    ['.', ''],
    ['raw/inside-link.md', 'wiki/concepts/attention.md'],
    ['raw/not-yet.md', 'raw/not-yet.md'],
    ['raw/.hidden-note.md', 'raw/.hidden-note.md'],
    ['raw/environment.md', 'raw/environment.md'],
  ];
  it.each(reads)('read %j resolves to the real %j', async (requested, real) => {
    const resolved = await resolveInSandbox(ws.root, requested, 'read');
    expect(resolved.real).toBe(real);
    expect(await resolveForRead(ws.root, requested)).toBe(resolved.absolute);
  });

  const writes: Array<[string, string]> = [
    ['wiki/concepts/new.md', 'wiki/concepts/new.md'],
    ['wiki/new-folder/deeper/page.md', 'wiki/new-folder/deeper/page.md'],
    ['wiki/concepts/attention.md', 'wiki/concepts/attention.md'],
    ['wiki/log.md', 'wiki/log.md'],
    ['wiki/alias.md', 'wiki/concepts/attention.md'],
    ['wiki/dangling-inside.md', 'wiki/nowhere.md'],
  ];
  it.each(writes)('write %j resolves to the real %j', async (requested, real) => {
    const resolved = await resolveInSandbox(ws.root, requested, 'write');
    expect(resolved.real).toBe(real);
    expect(resolved.relative).toBe(requested);
  });

  it('compares real paths when the root itself is reached through a symlink', async () => {
    expect((await resolveInSandbox(linkedRoot, 'raw/paper.md', 'read')).real).toBe('raw/paper.md');
    expect((await resolveInSandbox(linkedRoot, 'wiki/concepts/new.md', 'write')).real).toBe('wiki/concepts/new.md');
    await expect(resolveForRead(linkedRoot, 'raw/out-file.md')).rejects.toBeInstanceOf(SandboxError);
    await expect(resolveForWrite(linkedRoot, 'wiki/to-raw.md')).rejects.toBeInstanceOf(SandboxError);
  });

  it('reads through the tools where the sandbox allows', async () => {
    const { tools } = makeContext(ws);
    const read = await call(tools, 'read_file', { path: 'raw/inside-link.md' });
    expect(read.isError).toBe(false);
    expect(read.content).toContain('title: Attention');
  });
});
