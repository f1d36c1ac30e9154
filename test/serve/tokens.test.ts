import { chmod, mkdir, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addToken, hashToken, readTokens, removeToken, requireOutsideWorkspace, TokenBook, tokensFilePath } from '../../src/serve/tokens.js';

const WIKI = 'c13c9db6-e585-463e-a7dd-cb5bdf76b056';
const OTHER_WIKI = '0b7a8f52-3c1d-4e5f-9a6b-7c8d9e0f1a2b';

async function tempFile(): Promise<string> {
  return path.join(await mkdtemp(path.join(os.tmpdir(), 'wiki-tokens-')), 'nested', 'tokens.json');
}

const bookOf = (file: string, wiki: string | undefined = WIKI, log: (line: string) => void = () => undefined) => new TokenBook(file, log, () => wiki);

describe('serve tokens', () => {
  it('stores only the hash, readable by its owner only; the token is returned once and looked up by its hash', async () => {
    const file = await tempFile();
    const { token, record } = await addToken(file, { name: 'alice-laptop', maxVisibility: 'internal', user: 'alice', wiki: WIKI });
    expect(token).toMatch(/^wiki_[A-Za-z0-9_-]{43}$/);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain(hashToken(token));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readTokens(file)).toEqual([record]);
    const book = bookOf(file);
    expect(await book.lookup(token)).toEqual(record);
    expect(await book.lookup(`${token}x`)).toBeUndefined();
    // A token removed is refused at once by a running server's book.
    expect(await removeToken(file, 'alice-laptop', WIKI)).toBe(true);
    expect(await book.lookup(token)).toBeUndefined();
  });

  it('keeps the file shape: a top-level tokens array of name, sha256, cap, user, created, and the wiki id', async () => {
    const file = await tempFile();
    await addToken(file, { name: 'ci', maxVisibility: 'public', user: 'alice', wiki: WIKI }, new Date('2026-12-01T00:00:00Z'));
    const stored = JSON.parse(await readFile(file, 'utf8')) as { version: number; tokens: Array<Record<string, unknown>> };
    expect(stored.version).toBe(1);
    expect(Object.keys(stored.tokens[0] ?? {}).sort()).toEqual(['createdAt', 'maxVisibility', 'name', 'sha256', 'user', 'wiki']);
    expect(stored.tokens[0]).toMatchObject({ name: 'ci', maxVisibility: 'public', user: 'alice', createdAt: '2026-12-01T00:00:00.000Z', wiki: WIKI });
  });

  it("accepts a token on its own wiki only: another wiki's token, and one made before tokens had a wiki, are unknown", async () => {
    const file = await tempFile();
    const mine = await addToken(file, { name: 'ci', maxVisibility: 'public', wiki: WIKI });
    const theirs = await addToken(file, { name: 'ci', maxVisibility: 'private', wiki: OTHER_WIKI });
    // A record from before tokens belonged to a wiki: no `wiki` field.
    const stored = JSON.parse(await readFile(file, 'utf8')) as { version: 1; tokens: object[] };
    const legacy = 'wiki_legacy-token-made-before-wiki-ids-existed';
    stored.tokens.push({ name: 'old', sha256: hashToken(legacy), maxVisibility: 'private', createdAt: '2026-01-01T00:00:00Z' });
    await writeFile(file, JSON.stringify(stored));
    const book = bookOf(file);
    expect(await book.load()).toEqual({ mine: 1, unbound: 1 });
    expect((await book.lookup(mine.token))?.name).toBe('ci');
    expect(await book.lookup(theirs.token)).toBeUndefined();
    expect(await book.lookup(legacy)).toBeUndefined();
    // A wiki with no id yet accepts nothing.
    expect(await new TokenBook(file, () => undefined, () => undefined).lookup(mine.token)).toBeUndefined();
    // The same name on two wikis is two tokens; removing this wiki's leaves the other's.
    expect(await removeToken(file, 'ci', WIKI)).toBe(true);
    expect((await readTokens(file)).map((t) => [t.name, t.wiki])).toEqual([['ci', OTHER_WIKI], ['old', undefined]]);
  });

  it('refuses a second token of the same name on a wiki, a bad name and a bad user', async () => {
    const file = await tempFile();
    await addToken(file, { name: 'ci', maxVisibility: 'public', wiki: WIKI });
    await expect(addToken(file, { name: 'ci', maxVisibility: 'public', wiki: WIKI })).rejects.toThrow(/already exists/);
    await expect(addToken(file, { name: '../x', maxVisibility: 'public', wiki: WIKI })).rejects.toThrow(/cannot name a token/);
    await expect(addToken(file, { name: 'x', maxVisibility: 'public', user: 'Alice/..', wiki: WIKI })).rejects.toThrow(/user name/);
  });

  it('never loses a record to concurrent adds, and a revoked token stays revoked while adds race it', async () => {
    const file = await tempFile();
    const doomed = await addToken(file, { name: 'doomed', maxVisibility: 'public', wiki: WIKI });
    const adds = Array.from({ length: 8 }, (_, i) => addToken(file, { name: `agent-${i}`, maxVisibility: 'public', wiki: WIKI }));
    const [removed, ...added] = await Promise.all([removeToken(file, 'doomed', WIKI), ...adds]);
    expect(removed).toBe(true);
    const book = bookOf(file);
    for (const { token, record } of added) expect((await book.lookup(token))?.name).toBe(record.name);
    expect(await book.lookup(doomed.token)).toBeUndefined();
    expect((await readTokens(file)).map((t) => t.name).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `agent-${i}`));
  });

  it('good work: a file of its owner in a folder of its own is read without a word', async () => {
    const file = await tempFile();
    await addToken(file, { name: 'ci', maxVisibility: 'public', wiki: WIKI });
    await expect(readTokens(file)).resolves.toHaveLength(1);
  });

  it('refuses a tokens file anyone may write, or one in a folder anyone may write (fail closed on a running server)', async () => {
    const file = await tempFile();
    const { token } = await addToken(file, { name: 'ci', maxVisibility: 'public', wiki: WIKI });
    await chmod(file, 0o666);
    await expect(readTokens(file)).rejects.toThrow(/can be written by every user/);
    const lines: string[] = [];
    expect(await bookOf(file, WIKI, (line) => lines.push(line)).lookup(token)).toBeUndefined();
    expect(lines.join('\n')).toMatch(/no token is accepted/);
    await chmod(file, 0o600);
    await chmod(path.dirname(file), 0o777);
    await expect(readTokens(file)).rejects.toThrow(/a folder every user of this machine can write/);
    await expect(addToken(file, { name: 'planted', maxVisibility: 'private', wiki: WIKI })).rejects.toThrow(/a folder every user/);
    // The temp folder itself is world-writable but sticky and root's: fine (this whole test lives under it).
    expect(((await stat(os.tmpdir())).mode & 0o1002) === 0o1002 || ((await stat(os.tmpdir())).mode & 0o002) === 0).toBe(true);
  });

  it('fails closed on a damaged file: no token is accepted', async () => {
    const file = await tempFile();
    const { token } = await addToken(file, { name: 'ci', maxVisibility: 'public', wiki: WIKI });
    await writeFile(file, '{"version":1,"tokens":[{"name":"ci"}]}');
    const lines: string[] = [];
    expect(await bookOf(file, WIKI, (line) => lines.push(line)).lookup(token)).toBeUndefined();
    expect(lines.join('\n')).toMatch(/no token is accepted/);
  });

  it('is found from --tokens, else the environment, else the config folder; never inside the workspace, also through a link', async () => {
    expect(tokensFilePath('/a/t.json', { WIKI_SERVE_TOKENS: '/b/t.json' })).toBe('/a/t.json');
    expect(tokensFilePath(undefined, { WIKI_SERVE_TOKENS: '/b/t.json' })).toBe('/b/t.json');
    expect(tokensFilePath(undefined, { XDG_CONFIG_HOME: '/c' })).toBe('/c/wiki/serve-tokens.json');
    const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-ws-'));
    expect(() => requireOutsideWorkspace(path.join(root, 'deep', 'tokens.json'), root)).toThrow(/inside the workspace/);
    expect(() => requireOutsideWorkspace(path.join(os.tmpdir(), 'elsewhere', 'tokens.json'), root)).not.toThrow();
    // A link outside whose target is inside, existing or not yet.
    const outside = await mkdtemp(path.join(os.tmpdir(), 'wiki-links-'));
    await writeFile(path.join(root, 'tokens.json'), '{"version":1,"tokens":[]}');
    await symlink(path.join(root, 'tokens.json'), path.join(outside, 'to-existing.json'));
    await symlink(path.join(root, 'not-yet.json'), path.join(outside, 'to-missing.json'));
    expect(() => requireOutsideWorkspace(path.join(outside, 'to-existing.json'), root)).toThrow(/inside the workspace/);
    expect(() => requireOutsideWorkspace(path.join(outside, 'to-missing.json'), root)).toThrow(/inside the workspace/);
    // A link outside to a file outside is fine.
    await mkdir(path.join(outside, 'real'), { recursive: true });
    await symlink(path.join(outside, 'real', 'tokens.json'), path.join(outside, 'to-outside.json'));
    expect(() => requireOutsideWorkspace(path.join(outside, 'to-outside.json'), root)).not.toThrow();
  });
});
