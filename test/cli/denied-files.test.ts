import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { ScriptStep } from '../helpers/fake-llm-server.js';
import { describeWithSqlite } from '../helpers/sqlite.js';
import { fakeServers, freshWorkspace, pagePath, pageText, patchConfig } from './cron-fixtures.js';

/**
 * Denied files (the built-in list and sandbox.deny, gitignore-style) are absent in every
 * answer (issue 28, items 6, 8 and 9), through the built CLI and both wire formats: a
 * citation or a `sources` entry naming one is refused exactly as one naming a missing file
 * (no line count from a too-long range), and their lines never become facts.
 */
const serve = fakeServers();
const SECRET = 'QUOKKA-7731-secret';

async function workspace(): Promise<string> {
  const root = await freshWorkspace();
  await writeFile(path.join(root, '.env'), `TOKEN=${SECRET}\nOTHER=1\n`);
  await writeFile(path.join(root, 'raw/secret.md'), `# Secret\n\nThe vault code is ${SECRET} and the quokka sleeps at noon.\n`);
  await writeFile(path.join(root, 'raw/open.md'), '# Open\n\nThe quokka eats leaves at dusk.\n');
  await patchConfig(root, { sandbox: { deny: ['raw/secret.md'] } });
  return root;
}

const withBody = (body: string, sources = ['raw/open.md']): string => pageText('source', 'open', { sources, body });

describe.each(['anthropic', 'openai'] as const)('denied files answer as absent (%s wire format)', (wire) => {
  it('in citations and sources, without a line count', async () => {
    const root = await workspace();
    const write = (content: string): ScriptStep => ({ toolCalls: [{ name: 'write_file', arguments: { path: pagePath('source', 'open'), content } }] });
    const server = await serve([
      write(withBody('A claim. <!-- from: .env#L1-1 -->')),
      write(withBody('A claim. <!-- from: .env.nope#L1-1 -->')),
      write(withBody('A claim. <!-- from: .env#L1-900 -->')),
      write(withBody('A claim.', ['raw/open.md', 'raw/secret.md'])),
      write(withBody('A claim.', ['raw/open.md', 'raw/nope.md'])),
      write(withBody('A claim. <!-- from: raw/secret.md#L1-900 -->')),
      write(withBody('The quokka eats leaves. <!-- from: raw/open.md#L3-3 -->')),
      { text: 'Done.' },
    ]);
    const ingest = await runCli(['ingest', 'raw/open.md', '--json'], { cwd: root, env: server.env(wire) });
    expect(server.problems).toEqual([]);
    expect(ingest.code).toBe(0);
    const results = server.requests.slice(1).map((request) => request.toolResults[0]);
    expect(results.map((r) => r?.isError)).toEqual([true, true, true, true, true, true, false]);
    const [env = '', envNope, envLong, secretSource = '', missingSource, secretLong] = results.map((r) => r?.content ?? '');
    expect(env.replaceAll('.env#', '.env.nope#').replaceAll('.env ', '.env.nope ')).toBe(envNope);
    expect(envLong).toMatch(/names no file/);
    expect(envLong).not.toMatch(/\d+ lines/);
    expect(secretSource.replaceAll('raw/secret.md', 'raw/nope.md')).toBe(missingSource);
    expect(secretLong).not.toMatch(/\d+ lines/);
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET);
  });
});

describeWithSqlite('denied raw/ files never become facts', () => {
  it.each(['anthropic', 'openai'] as const)('facts search and query --facts (%s wire format)', async (wire) => {
    const root = await workspace();
    const rebuild = JSON.parse((await runCli(['facts', 'rebuild', '--json'], { cwd: root })).stdout) as { sources: { refused: string[] } };
    expect(rebuild.sources.refused.join('\n')).toContain('raw/secret.md');
    const search = await runCli(['facts', 'search', 'quokka', '--json'], { cwd: root });
    expect(search.stdout).toContain('leaves at dusk');
    expect(search.stdout).not.toContain(SECRET);
    expect(search.stdout).not.toContain('noon');
    const server = await serve([{ text: 'The quokka eats leaves at dusk.' }]);
    await runCli(['query', '--facts', 'when does the quokka sleep?', '--json'], { cwd: root, env: server.env(wire) });
    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) {
      expect(JSON.stringify(request.body)).not.toContain(SECRET);
      expect(JSON.stringify(request.body)).not.toContain('noon');
    }
  });

  it('a file denied after its facts were extracted loses them', async () => {
    const root = await workspace();
    const facts = async (): Promise<string> =>
      JSON.stringify((JSON.parse((await runCli(['facts', 'search', 'noon', '--json'], { cwd: root })).stdout) as { facts: unknown[] }).facts);
    await patchConfig(root, { sandbox: { deny: [] } });
    expect(await facts()).toContain(SECRET);
    await patchConfig(root, { sandbox: { deny: ['raw/secret.md'] } });
    expect(await facts()).toBe('[]');
  });
});
