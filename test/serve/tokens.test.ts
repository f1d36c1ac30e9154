import { mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addToken, hashToken, readTokens, removeToken, requireOutsideWorkspace, TokenBook, tokensFilePath } from '../../src/serve/tokens.js';

async function tempFile(): Promise<string> {
  return path.join(await mkdtemp(path.join(os.tmpdir(), 'wiki-tokens-')), 'nested', 'tokens.json');
}

describe('serve tokens', () => {
  it('stores only the hash, readable by its owner only; the token is returned once and looked up by its hash', async () => {
    const file = await tempFile();
    const { token, record } = await addToken(file, { name: 'alice-laptop', maxVisibility: 'internal', user: 'alice' });
    expect(token).toMatch(/^wiki_[A-Za-z0-9_-]{43}$/);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain(hashToken(token));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readTokens(file)).toEqual([record]);
    const book = new TokenBook(file, () => undefined);
    expect(await book.lookup(token)).toEqual(record);
    expect(await book.lookup(`${token}x`)).toBeUndefined();
    // A token removed is refused at once by a running server's book.
    expect(await removeToken(file, 'alice-laptop')).toBe(true);
    expect(await book.lookup(token)).toBeUndefined();
  });

  it('refuses a second token of the same name, a bad name and a bad user', async () => {
    const file = await tempFile();
    await addToken(file, { name: 'ci', maxVisibility: 'public' });
    await expect(addToken(file, { name: 'ci', maxVisibility: 'public' })).rejects.toThrow(/already exists/);
    await expect(addToken(file, { name: '../x', maxVisibility: 'public' })).rejects.toThrow(/cannot name a token/);
    await expect(addToken(file, { name: 'x', maxVisibility: 'public', user: 'Alice/..' })).rejects.toThrow(/user name/);
  });

  it('fails closed on a damaged file: no token is accepted', async () => {
    const file = await tempFile();
    const { token } = await addToken(file, { name: 'ci', maxVisibility: 'public' });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, '{"version":1,"tokens":[{"name":"ci"}]}');
    const lines: string[] = [];
    expect(await new TokenBook(file, (line) => lines.push(line)).lookup(token)).toBeUndefined();
    expect(lines.join('\n')).toMatch(/no token is accepted/);
  });

  it('is found from --tokens, else the environment, else the config folder; never inside the workspace', async () => {
    expect(tokensFilePath('/a/t.json', { WIKI_SERVE_TOKENS: '/b/t.json' })).toBe('/a/t.json');
    expect(tokensFilePath(undefined, { WIKI_SERVE_TOKENS: '/b/t.json' })).toBe('/b/t.json');
    expect(tokensFilePath(undefined, { XDG_CONFIG_HOME: '/c' })).toBe('/c/wiki/serve-tokens.json');
    const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-ws-'));
    await expect(requireOutsideWorkspace(path.join(root, 'deep', 'tokens.json'), root)).rejects.toThrow(/inside the workspace/);
    await expect(requireOutsideWorkspace(path.join(os.tmpdir(), 'elsewhere', 'tokens.json'), root)).resolves.toBeUndefined();
  });
});
