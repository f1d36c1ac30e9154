import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, initWorkspace, runCli, tempDir } from '../helpers/cli.js';
import { serverEnv } from './client.js';
import { writeSampleWiki } from './sample.js';

interface RawRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** How long the server took to exit after its stdin was closed. */
  exitMs: number;
}

/**
 * Speak the protocol by hand: write newline-delimited JSON-RPC requests, wait for as many
 * responses, close stdin, and see what the process printed and how it ended.
 */
function rawSession(args: string[], requests: Array<object | string>): Promise<RawRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: serverEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let closedAt = 0;
    // A raw (string) line is one the server must answer with an error.
    const expected = requests.filter((request) => typeof request === 'string' || 'id' in request).length;
    const killer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const responses = stdout.split('\n').filter((line) => line.includes('"id"')).length;
      if (responses >= expected && closedAt === 0) {
        closedAt = Date.now();
        child.stdin.end();
      }
    });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, exitMs: Date.now() - closedAt });
    });
    for (const request of requests) child.stdin.write(`${typeof request === 'string' ? request : JSON.stringify(request)}\n`);
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

let root: string;
beforeAll(async () => {
  root = await initWorkspace();
  await writeSampleWiki(root);
});

describe('wiki mcp on the wire', () => {
  it('writes nothing but JSON-RPC on stdout and exits cleanly when the client closes stdin', async () => {
    const run = await rawSession(
      ['--root', root, 'mcp'],
      [
        INITIALIZE,
        INITIALIZED,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_wiki', arguments: { query: 'attention' } } },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'lint_report', arguments: {} } },
      ],
    );
    const lines = run.stdout.split('\n').filter((line) => line !== '');
    const messages = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id?: number; result?: unknown; error?: unknown });
    expect(messages.every((message) => message.jsonrpc === '2.0')).toBe(true);
    expect(messages.map((message) => message.id).sort()).toEqual([1, 2, 3, 4]);
    expect(messages.every((message) => message.error === undefined)).toBe(true);
    expect(run.code).toBe(0);
    expect(run.signal).toBeNull();
    expect(run.stderr).toMatch(/wiki mcp: serving .* on stdio/);
    expect(run.stderr).toMatch(/wiki mcp: stopping \(the client closed stdin\)/);
  });

  it.each([
    ['not JSON', '{"jsonrpc":"2.0","id":7,', null, -32700],
    ['a JSON string', '"hello"', null, -32600],
    ['an empty batch', '[]', null, -32600],
    ['no jsonrpc field', '{"id":8,"method":"tools/list"}', 8, -32600],
    ['a method that is not a string', '{"jsonrpc":"2.0","id":"x","method":42}', 'x', -32600],
  ])('answers %s with a JSON-RPC error and keeps serving', async (_what, line, id, code) => {
    const run = await rawSession(['--quiet', '--root', root, 'mcp'], [line, INITIALIZE]);
    const messages = run.stdout
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => JSON.parse(text) as { id: unknown; error?: { code: number }; result?: unknown });
    expect(messages.find((message) => message.error)).toMatchObject({ id, error: { code } });
    expect(messages.find((message) => message.id === 1)?.result).toBeDefined();
    expect(run.code).toBe(0);
  });

  it('--quiet keeps stderr silent too', async () => {
    const run = await rawSession(['--quiet', '--root', root, 'mcp'], [INITIALIZE]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout.trim())).toMatchObject({ id: 1, result: { serverInfo: { name: 'wiki' } } });
  });

  it('finds the workspace from the current directory like every command', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: `${root}/wiki/concepts`, env: serverEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.once('data', () => child.stdin.end());
      child.on('close', resolve);
      child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    });
    expect(code).toBe(0);
    expect(stderr).toContain(`serving ${root} on stdio`);
  });

  it('without a workspace it fails before serving: exit 2, the reason on stderr, stdout empty', async () => {
    const empty = await tempDir();
    const result = await runCli(['--root', empty, 'mcp']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/no schema\.md there/);
  });
});
