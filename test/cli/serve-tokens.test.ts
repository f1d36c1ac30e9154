import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { chmod, cp, mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { freshWorkspace } from './cron-fixtures.js';

/**
 * `wiki serve token …` through the built CLI: a token belongs to one wiki (its committed
 * wiki.id, the same in every clone), adds and removes never race, the file is what it
 * claims, a user is bound only when said, and a refused start says why.
 */

async function tokensFile(): Promise<string> {
  return path.join(await tempDir('wiki-tokens-'), 'tokens.json');
}

const add = (root: string, file: string, name: string, ...extra: string[]) =>
  runCli(['--root', root, 'serve', 'token', 'add', name, '--max-visibility', 'public', '--tokens', file, ...extra]);

describe('wiki serve token', () => {
  it('prints the token alone on its first line, makes wiki.id once, and lists each token with its wiki', async () => {
    const root = await freshWorkspace();
    const file = await tokensFile();
    const first = await add(root, file, 'ci');
    expect(first.code).toBe(0);
    expect(first.stdout.split('\n')[0]).toMatch(/^wiki_[A-Za-z0-9_-]{43}$/);
    expect(first.stderr).toMatch(/wiki\.id.*commit it/);
    const id = (await readFile(path.join(root, 'wiki.id'), 'utf8')).split('\n').find((line) => line && !line.startsWith('#'));
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await add(root, file, 'bot');
    expect(second.stderr).not.toMatch(/wiki\.id/);
    const listed = await runCli(['--root', root, 'serve', 'token', 'list', '--tokens', file]);
    expect(listed.stdout).toMatch(new RegExp(`^ci  wiki ${id} \\(this one\\)  up to public`, 'm'));
    const json = JSON.parse((await runCli(['--root', root, 'serve', 'token', 'list', '--tokens', file, '--json'])).stdout) as { wiki: string; tokens: Array<{ wiki: string }> };
    expect(json.wiki).toBe(id);
    expect(json.tokens.map((t) => t.wiki)).toEqual([id, id]);
  });

  it("binds one wiki: a clone shares the id, another wiki does not, and another wiki's server refuses to start on only foreign tokens", async () => {
    const team = await freshWorkspace();
    const file = await tokensFile();
    await add(team, file, 'ci');
    // A git clone of the team wiki has the same committed id.
    execFileSync('git', ['init', '-q'], { cwd: team });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: team });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'wiki'], { cwd: team });
    const clone = path.join(await tempDir('wiki-clone-'), 'team');
    execFileSync('git', ['clone', '-q', team, clone]);
    expect(await readFile(path.join(clone, 'wiki.id'), 'utf8')).toBe(await readFile(path.join(team, 'wiki.id'), 'utf8'));
    const example = await freshWorkspace();
    const refused = await runCli(['--root', example, 'serve', '--port', '0', '--tokens', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no token for this wiki/);
  });

  it('never loses a record to eight concurrent adds, and a remove racing them stays removed', async () => {
    const root = await freshWorkspace();
    const file = await tokensFile();
    await add(root, file, 'doomed');
    const runs = await Promise.all([
      runCli(['--root', root, 'serve', 'token', 'remove', 'doomed', '--tokens', file]),
      ...Array.from({ length: 8 }, (_, i) => add(root, file, `agent-${i}`, '--json')),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { tokens: Array<{ name: string; sha256: string }> };
    expect(stored.tokens.map((t) => t.name).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `agent-${i}`));
    const { createHash } = await import('node:crypto');
    for (const run of runs.slice(1)) {
      const token = (JSON.parse(run.stdout) as { token: string }).token;
      expect(stored.tokens.map((t) => t.sha256)).toContain(createHash('sha256').update(token).digest('hex'));
    }
  }, 180_000);

  it('refuses a world-writable tokens file or folder, and a --tokens link whose target is inside the workspace', async () => {
    const root = await freshWorkspace();
    const file = await tokensFile();
    expect((await add(root, file, 'ci')).code).toBe(0);
    await chmod(file, 0o666);
    const open = await runCli(['--root', root, 'serve', '--port', '0', '--tokens', file]);
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/can be written by every user/);
    await chmod(file, 0o600);
    await chmod(path.dirname(file), 0o777);
    const folder = await add(root, file, 'planted');
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/folder every user of this machine can write/);
    const link = path.join(await tempDir('wiki-link-'), 'tokens.json');
    await symlink(path.join(root, 'raw', 'tokens.json'), link);
    const inside = await add(root, link, 'sneaky');
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/inside the workspace/);
  });

  it('binds a user only with an explicit --user, before or after the subcommand; WIKI_USER alone never binds', async () => {
    const root = await freshWorkspace();
    const file = await tokensFile();
    const env = await runCli(['--root', root, 'serve', 'token', 'add', 'from-env', '--max-visibility', 'public', '--tokens', file, '--json'], { env: { WIKI_USER: 'alice' } });
    expect(env.code).toBe(0);
    expect(JSON.parse(env.stdout)).not.toHaveProperty('user');
    const after = await add(root, file, 'after', '--user', 'bob', '--json');
    expect(JSON.parse(after.stdout)).toMatchObject({ user: 'bob' });
    const before = await runCli(['--root', root, '--user', 'carol', 'serve', 'token', 'add', 'before', '--max-visibility', 'public', '--tokens', file, '--json']);
    expect(JSON.parse(before.stdout)).toMatchObject({ user: 'carol' });
    const help = await runCli(['serve', 'token', 'add', '--help']);
    expect(help.stdout).toMatch(/--user <name>\s+bind the token to this user/);
    expect(help.stdout).toMatch(/--max-visibility/);
    expect(help.stdout).not.toMatch(/--host|--port|--rate-limit/);
  });

  it('says a taken port is taken, suggests --port 0, exits 2', async () => {
    const root = await freshWorkspace();
    const file = await tokensFile();
    await add(root, file, 'ci');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const taken = await runCli(['--root', root, 'serve', '--port', String(port), '--tokens', file]);
      expect(taken.code).toBe(2);
      expect(taken.stderr).toMatch(new RegExp(`port ${port} .*is taken`));
      expect(taken.stderr).toMatch(/--port 0/);
      expect(taken.stderr).not.toMatch(/unexpected/i);
    } finally {
      blocker.close();
    }
  });

  it('good work: a copy of the wiki keeps its id and its tokens', async () => {
    const root = await freshWorkspace();
    const file = await tokensFile();
    await add(root, file, 'ci');
    const copy = path.join(await tempDir('wiki-copy-'), 'copy');
    await mkdir(copy);
    await cp(root, copy, { recursive: true });
    const listed = JSON.parse((await runCli(['--root', copy, 'serve', 'token', 'list', '--tokens', file, '--json'])).stdout) as { wiki: string; tokens: Array<{ wiki: string }> };
    expect(listed.tokens[0]?.wiki).toBe(listed.wiki);
  });
});
