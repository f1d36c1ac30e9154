import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freshWorkspace } from './cron-fixtures.js';

/** Help goes where it is asked for, exit codes say what happened, and every command's help is whole. */

describe('help and exit codes', () => {
  it('bare `wiki` prints the help on stdout and exits 0', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: wiki /);
    expect(result.stderr).toBe('');
  });

  it('`wiki ingst --help` says the command is unknown, names the closest one, exits 2', async () => {
    const result = await runCli(['ingst', '--help']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/unknown command 'ingst'/);
    expect(result.stderr).toMatch(/Did you mean ingest\?/);
  });

  it('every command\'s help shows its defaults as typed, never JSON-quoted; a text default still shows', async () => {
    const commands = ['init', 'ingest', 'query', 'search', 'facts', 'lint', 'status', 'graph', 'undo', 'promote', 'mcp', 'serve', 'config'];
    for (const command of commands) {
      const help = await runCli([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).not.toMatch(/\(default:\s+"/);
    }
    expect((await runCli(['search', '--help'])).stdout).toMatch(/how many results \(default: 10\)/);
  });

  it('every command that writes pages offers --review and --no-review, each with its own help', async () => {
    for (const command of ['ingest', 'query', 'lint', 'rm', 'promote']) {
      const help = (await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ');
      expect(help, command).toMatch(/--review write a proposal instead of changing wiki\//);
      expect(help, command).toMatch(/--no-review write wiki\/ directly even when `review: true` is in wiki\.config\.json/);
    }
  });

  it('a known command with global options before it still shows its own help', async () => {
    const result = await runCli(['--root', '/nowhere', 'status', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: wiki status/);
  });

  it.each([['ingest'], ['query'], ['search'], ['lint'], ['undo'], ['promote'], ['facts', 'search'], ['config', 'set']])(
    '`wiki %s --help` lists the global options it accepts',
    async (...command) => {
      const result = await runCli([...command, '--help']);
      expect(result.code).toBe(0);
      for (const option of ['--json', '--quiet', '--root <dir>', '--user <name>']) expect(result.stdout).toContain(option);
    },
  );

  it.each([['facts', 'search'], ['facts', 'rebuild'], ['config', 'set']])('`wiki %s %s --help` has examples', async (...command) => {
    const result = await runCli([...command, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Examples:\\n\\s+\\$ wiki ${command.join(' ')}\\b`));
  });

  it('`wiki search` for something not in the wiki exits 1 with found: false; a hit exits 0', async () => {
    const root = await freshWorkspace();
    const miss = await runCli(['search', 'xylophonic zanzibar'], { cwd: root });
    expect(miss.code).toBe(1);
    expect(miss.stdout).toMatch(/found: false/);
    const json = await runCli(['search', 'xylophonic zanzibar', '--json'], { cwd: root });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ found: false });
  });
});
