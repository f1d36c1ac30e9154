import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import path from 'node:path';
import { runCli, startCli, tempDir, waitFor, type StartedCli } from '../helpers/cli.js';
import { toolCalls } from '../mcp/client.js';

/** `wiki serve` as a real process on a free port, and the SDK's own HTTP client to call it. */
export interface Served {
  url: string;
  cli: StartedCli;
  stderr(): string;
  stop(): Promise<void>;
}

/** A tokens file outside the workspace, in a folder of its own. */
export async function tokensFile(): Promise<string> {
  return path.join(await tempDir('wiki-tokens-'), 'tokens.json');
}

/** `wiki serve token add NAME …`: the token, printed once. */
export async function addToken(root: string, file: string, name: string, maxVisibility: string, user?: string): Promise<string> {
  const args = ['--root', root, 'serve', 'token', 'add', name, '--max-visibility', maxVisibility, '--tokens', file, '--json', ...(user ? ['--user', user] : [])];
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`token add failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { token: string }).token;
}

export async function serve(root: string, file: string, extra: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const cli = startCli(['--root', root, 'serve', '--port', '0', '--tokens', file, ...extra], { timeoutMs: 600_000, env });
  await waitFor(() => /\/mcp\n/.test(cli.stdout()) || cli.child.exitCode !== null, 'wiki serve to print its URL', 60_000);
  const url = /^(http:\/\/\S+\/mcp)$/m.exec(cli.stdout())?.[1];
  if (!url) throw new Error(`wiki serve did not start: ${cli.stderr()}`);
  return {
    url,
    cli,
    stderr: () => cli.stderr(),
    stop: async () => {
      cli.child.kill('SIGTERM');
      await cli.done;
    },
  };
}

export interface HttpSession {
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; outcome: unknown }>;
  json<T>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Every answer's text, for checks over the whole session. */
  transcript: string[];
  close(): Promise<void>;
}

export async function connect(url: string, token: string): Promise<HttpSession> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'wiki-serve-test', version: '1.0.0' });
  await client.connect(transport);
  return toolCalls(client);
}
