import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { fakeServers } from '../helpers/use-fake-llm.js';

const startServer = fakeServers();

/**
 * A remembered lint review belongs to its reader: the model working for Alice sees neither
 * Bob's scratch pages nor findings about them, so her review must not make Bob's run skip.
 */
describe('wiki lint --fix, remembered per reader', () => {
  it("Alice's review does not make `wiki --user bob lint --fix` skip the model; Bob's own second run does skip", async () => {
    const root = await tempDir();
    expect((await runCli(['init', root, '--example'])).code).toBe(0);
    // Bob's scratch copy of a team page, with a claim of his own: clean to lint, seen by Bob's model only.
    await mkdir(path.join(root, 'wiki/user/bob/concepts'), { recursive: true });
    const team = await readFile(path.join(root, 'wiki/concepts/zettelkasten.md'), 'utf8');
    await writeFile(path.join(root, 'wiki/user/bob/concepts/zettelkasten.md'), `${team}\nBob thinks the card count is twelve.\n`);
    const done = (): ScriptStep => ({ text: 'Reviewed the wiki; nothing to report.' });

    const alice = await startServer(done);
    expect((await runCli(['--user', 'alice', 'lint', '--fix'], { cwd: root, env: alice.env('anthropic') })).code).toBe(0);
    expect(alice.requests.length).toBeGreaterThan(0);

    const bob = await startServer(done);
    const bobRun = await runCli(['--user', 'bob', 'lint', '--fix'], { cwd: root, env: bob.env('anthropic') });
    expect(bobRun.code).toBe(0);
    expect(bobRun.stderr + bobRun.stdout).not.toMatch(/model review skipped/);
    expect(bob.requests.length).toBeGreaterThan(0);

    // Good work: Bob's review is remembered for Bob.
    const bobAgain = await startServer(done);
    const again = await runCli(['--user', 'bob', 'lint', '--fix'], { cwd: root, env: bobAgain.env('anthropic') });
    expect(again.code).toBe(0);
    expect(again.stderr + again.stdout).toMatch(/model review skipped/);
    expect(bobAgain.requests).toHaveLength(0);
  });
});
