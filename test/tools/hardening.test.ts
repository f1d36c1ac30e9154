import { link, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { deniedSegmentReason } from '../../src/confine/paths.js';
import { call, makeContext, makeWorkspace, page, SECRET, snapshotTree, type TempWorkspace } from './fixtures.js';

/**
 * Issue 13: secrets beyond .env, hard links, and size caps on what the model writes.
 * Each vector is one row; every refusal must leave the temp folder unchanged and give no secret.
 */

let ws: TempWorkspace;

beforeAll(async () => {
  ws = await makeWorkspace();
  const { root, outside } = ws;
  const secrets: Record<string, string> = {
    '.npmrc': `//registry.npmjs.org/:_authToken=${SECRET}\n`,
    '.netrc': `machine x login u password ${SECRET}\n`,
    '.pypirc': `[pypi]\npassword = ${SECRET}\n`,
    '.ssh/config': `IdentityFile ${SECRET}\n`,
    '.aws/credentials': `aws_secret_access_key = ${SECRET}\n`,
    'raw/server.pem': `-----BEGIN PRIVATE KEY-----\n${SECRET}\n`,
    'raw/tls.KEY': `${SECRET}\n`,
    'raw/id_rsa': `${SECRET}\n`,
    'raw/id_rsa.pub': `ssh-rsa ${SECRET}\n`,
    'raw/private/notes.md': `${SECRET}\n`,
    'raw/wallet.p12': `${SECRET}\n`,
    '.git-credentials': `https://u:${SECRET}@github.com\n`,
    '.gitconfig': `[credential]\n\thelper = store ${SECRET}\n`,
    '.pgpass': `db:5432:*:u:${SECRET}\n`,
    '.kube/config': `token: ${SECRET}\n`,
    '.docker/config.json': `{"auths":{"x":{"auth":"${SECRET}"}}}\n`,
    '.config/gh/hosts.yml': `oauth_token: ${SECRET}\n`,
    '.vault-token': `${SECRET}\n`,
    '.gnupg/private-keys-v1.d/k.key': `${SECRET}\n`,
    'home/.docker/config.json': `{"auth":"${SECRET}"}\n`,
    'notes/secret.md': `${SECRET}\n`,
    'vault/deep/plan.md': `${SECRET}\n`,
    'drafts/a/b/todo.md': `${SECRET}\n`,
    'notes/public.md': 'Public notes.\n',
    'vault-public/plan.md': 'A plan anyone may read.\n',
  };
  for (const [file, content] of Object.entries(secrets)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  await link(path.join(root, '.env'), path.join(root, 'raw/env-hardlink.md'));
  await link(path.join(root, '.git/config'), path.join(root, 'raw/git-hardlink.md'));
  await link(path.join(outside, 'secret.txt'), path.join(root, 'raw/outside-hardlink.md'));
  await link(path.join(root, '.env'), path.join(root, 'wiki/concepts/env-hardlink.md'));
});

afterAll(async () => ws.cleanup());

describe('more secrets are denied (built-in list and sandbox.deny)', () => {
  const extraDeny = ['private', '*.p12', 'notes/secret.md', 'vault/**', '**/b'];
  it.each([
    ['.npmrc'],
    ['.netrc'],
    ['.pypirc'],
    ['.ssh/config'],
    ['.aws/credentials'],
    ['raw/server.pem'],
    ['raw/tls.KEY'],
    ['raw/id_rsa'],
    ['raw/id_rsa.pub'],
    ['raw/private/notes.md'],
    ['raw/wallet.p12'],
    ['.git-credentials'],
    ['.gitconfig'],
    ['.pgpass'],
    ['.kube/config'],
    ['.docker/config.json'],
    ['home/.docker/config.json'],
    ['.config/gh/hosts.yml'],
    ['.vault-token'],
    ['.gnupg/private-keys-v1.d/k.key'],
    ['notes/secret.md'],
    ['NOTES/Secret.md'],
    ['vault/deep/plan.md'],
    ['drafts/a/b/todo.md'],
  ])('read_file(%s) is refused without its content', async (file) => {
    const { tools } = makeContext(ws, { deny: extraDeny });
    const result = await call(tools, "read_file", { path: file });
    expect(result.isError).toBe(true);
    expect(result.content).not.toContain(SECRET);
    expect(result.content).toMatch(/never readable|sandbox\.deny|off limits/);
  });

  it.each([['.ssh'], ['.aws'], ['raw/private']])('list_directory(%s) is refused', async (folder) => {
    const { tools } = makeContext(ws, { deny: extraDeny });
    const result = await call(tools, "list_directory", { path: folder });
    expect(result.isError).toBe(true);
  });

  it('gitignore-style entries deny only what they name', async () => {
    const { tools } = makeContext(ws, { deny: extraDeny });
    for (const file of ['notes/public.md', 'vault-public/plan.md']) {
      const result = await call(tools, 'read_file', { path: file });
      expect(result.isError, file).toBe(false);
    }
    const notes = await call(tools, 'list_directory', { path: 'notes' });
    expect(notes.content).toContain('"public.md"');
    expect(notes.content).not.toContain('"secret.md"');
    const rootListing = await call(tools, 'list_directory', { path: '.' });
    expect(rootListing.content).toContain('"vault-public"');
    expect(rootListing.content).not.toContain('"vault"');
  });

  it('listings leave denied names out', async () => {
    const { tools } = makeContext(ws, { deny: extraDeny });
    const result = await call(tools, "list_directory", { path: 'raw' });
    for (const name of ['server.pem', 'tls.KEY', 'id_rsa', 'id_rsa.pub', 'private', 'wallet.p12']) {
      expect(result.content).not.toContain(`"${name}"`);
    }
    expect(result.content).toContain('"paper.md"');
  });

  it.each([
    ['notes.md', undefined],
    ['keyboard.md', undefined],
    ['monkey.md', undefined],
    ['id_rsa2', 'credentials'],
    ['SSH.pem', 'credentials'],
  ])('deniedSegmentReason(%s) matches only what it should', (segment, expected) => {
    const reason = deniedSegmentReason(segment);
    if (expected === undefined) expect(reason).toBeUndefined();
    else expect(reason).toContain(expected);
  });

  it.each([
    [{ sandbox: { deny: ['secrets', '*.p12'] } }, true],
    [{ sandbox: { deny: ['private/secret.md', 'private/**', '**/drafts', '/top.md', 'folder/'] } }, true],
    [{ sandbox: { deny: ['!keep.md'] } }, false],
    [{ sandbox: { deny: ['../outside'] } }, false],
    [{ sandbox: { deny: ['a\\b'] } }, false],
    [{ sandbox: { deny: ['/'] } }, false],
    [{ sandbox: { deny: [''] } }, false],
    [{}, true],
  ])('config %j is accepted: %s', (config, ok) => {
    expect(configSchema.safeParse(config).success).toBe(ok);
  });
});

describe('hard links never give their content', () => {
  it.each([['raw/env-hardlink.md'], ['raw/git-hardlink.md'], ['raw/outside-hardlink.md'], ['wiki/concepts/env-hardlink.md']])(
    'read_file(%s) is refused with advice to copy',
    async (file) => {
      const { tools } = makeContext(ws);
      const result = await call(tools, "read_file", { path: file });
      expect(result.isError).toBe(true);
      expect(result.content).not.toContain(SECRET);
      expect(result.content).toMatch(/hard link.*Copy the file/s);
    },
  );
});

describe('size caps on writes', () => {
  const limits = { pageWriteBytes: 4096, appendBytes: 512 };
  it.each([
    ['write_file', { path: 'wiki/concepts/huge.md', content: page('Huge', 'Big', 'x'.repeat(5000)) }, /over the 4096-byte limit.*limits\.pageWriteBytes/s],
    ['write_file', { path: 'wiki/concepts/multibyte.md', content: page('Wide', 'Wide', 'é'.repeat(2100)) }, /limits\.pageWriteBytes/],
    ['append_to_file', { path: 'wiki/log.md', content: `## [2026-01-01] ingest | x\n${'y'.repeat(600)}` }, /over the 512-byte limit.*limits\.appendBytes/s],
  ])('%s over the cap is refused and nothing changes', async (tool, argsOf, message) => {
    const before = await snapshotTree(ws.base);
    const { tools } = makeContext(ws, { writeLimits: limits });
    const result = await call(tools, tool, argsOf);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(message);
    expect(await snapshotTree(ws.base)).toEqual(before);
  });

  it('a page just under the cap is written', async () => {
    const { tools } = makeContext(ws, { writeLimits: limits });
    const result = await call(tools, "write_file", { path: 'wiki/concepts/fits.md', content: page('Fits', 'Fits', 'z'.repeat(3000)) });
    expect(result.isError).toBe(false);
  });

  it.each([
    [{}, { pageWriteBytes: 1024 * 1024, appendBytes: 64 * 1024, toolCallsPerTurn: 64, toolResultBytesPerTurn: 512 * 1024, htmlDepth: 256, pdfInflatedBytes: 256 * 1024 * 1024, pdfPages: 2000, searchesPerTurn: 16, searchQueryChars: 2000, transcriptEventBytes: 2 * 1024 * 1024 }],
    [{ limits: { pageWriteBytes: 2048 } }, { pageWriteBytes: 2048, appendBytes: 64 * 1024, toolCallsPerTurn: 64, toolResultBytesPerTurn: 512 * 1024, htmlDepth: 256, pdfInflatedBytes: 256 * 1024 * 1024, pdfPages: 2000, searchesPerTurn: 16, searchQueryChars: 2000, transcriptEventBytes: 2 * 1024 * 1024 }],
  ])('config %j gives limits %j', (config, expected) => {
    expect(configSchema.parse(config).limits).toEqual(expected);
  });
});

describe('every path is answered quickly', () => {
  it.each([
    ['2,000 missing folder levels', `wiki/${'a/'.repeat(2000)}x.md`, /2002 folder levels, over the 64 allowed/],
    ['65 levels', `raw/${'b/'.repeat(64)}x.md`, /folder levels, over the 64 allowed/],
    ['a 5,000-character name', `raw/${'n'.repeat(5000)}.md`, /over the 4096 allowed/],
  ])('%s is refused at once', async (_what, requested, message) => {
    const { tools } = makeContext(ws);
    for (const tool of ['read_file', 'list_directory', 'write_file', 'append_to_file']) {
      const result = await call(tools, tool, { path: requested, ...(tool.includes('_file') && tool !== 'read_file' ? { content: page('Deep', 'Deep') } : {}) });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(message);
    }
  });

  it('a deep path within the limit still gets the nearest-folder help', async () => {
    const { tools } = makeContext(ws);
    const result = await call(tools, 'read_file', { path: `raw/${'c/'.repeat(60)}x.md` });
    expect(result.content).toMatch(/nearest existing folder is raw/);
  });
});
