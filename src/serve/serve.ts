import { UsageError } from '../errors.js';
import type { McpWorkspace } from '../mcp/server.js';
import { MCP_TOOL_NAMES } from '../mcp/tools.js';
import { capRank, visibilityLevels } from '../wiki/access.js';
import { isLoopback, startWikiServe } from './http-server.js';
import { parseRateLimit, type RateLimit } from './rate-limit.js';
import { addToken, readTokens, removeToken, requireOutsideWorkspace, TokenBook, type TokenRecord } from './tokens.js';

export const DEFAULT_PORT = 8787;
export const DEFAULT_RATE_LIMIT: RateLimit = { requests: 600, perSeconds: 60 };
/** The periodic full check of wiki/ behind the watch. */
const FULL_CHECK_MS = 30_000;

export interface ServeFlags {
  host: string;
  port: string;
  tokens: string;
  rateLimit?: string | undefined;
}

/**
 * Run `wiki serve` until SIGINT/SIGTERM: check the flags and the tokens file, listen, hand
 * the URL to `announce` (stdout), log to `log` (stderr).
 */
export async function serveUntilStopped(
  workspace: McpWorkspace,
  flags: ServeFlags,
  io: { announce: (url: string) => void; log: (line: string) => void; env: NodeJS.ProcessEnv },
): Promise<void> {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number from 0 to 65535 (got ${flags.port})`, '0 picks a free port');
  const rateLimit = flags.rateLimit === undefined ? DEFAULT_RATE_LIMIT : parseRateLimit(flags.rateLimit);
  if (!rateLimit) throw new UsageError(`--rate-limit must be N or N/SECONDS (got ${flags.rateLimit})`, 'e.g. --rate-limit 120/60: 120 requests a minute per token');
  await requireOutsideWorkspace(flags.tokens, workspace.root);
  const count = await new TokenBook(flags.tokens, io.log).load();
  if (count === 0) {
    throw new UsageError(`no tokens in ${flags.tokens}: every call would be refused`, 'add one with `wiki serve token add NAME --max-visibility internal` (it is printed once)');
  }
  if (!isLoopback(flags.host)) {
    io.log(`warning: serving on ${flags.host}, reachable from other machines: every call needs a token, but the traffic is not encrypted — put a TLS proxy in front`);
  }
  const running = await startWikiServe(workspace, { host: flags.host, port, tokensFile: flags.tokens, rateLimit, fullCheckMs: FULL_CHECK_MS, env: io.env, log: io.log });
  io.announce(running.url);
  io.log(`wiki serve: serving ${workspace.root} (read-only: ${MCP_TOOL_NAMES.join(', ')}) to ${count} token(s) from ${flags.tokens}`);
  const why = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  io.log(`wiki serve: stopping (${why})`);
  await running.close();
}

/** `wiki serve token add`: the level must be one of this wiki's; the file must lie outside it. */
export async function addServeToken(
  workspace: McpWorkspace,
  file: string,
  spec: { name: string; maxVisibility: string; user?: string | undefined },
): Promise<{ token: string; record: TokenRecord; file: string }> {
  if (capRank(workspace.schema.contract, spec.maxVisibility) === undefined) {
    throw new UsageError(`"${spec.maxVisibility}" is not a visibility level of this wiki`, `schema.md declares: ${visibilityLevels(workspace.schema.contract).levels.join(', ')}`);
  }
  await requireOutsideWorkspace(file, workspace.root);
  return { ...(await addToken(file, spec)), file };
}

export async function listServeTokens(file: string): Promise<Array<Omit<TokenRecord, 'sha256'>>> {
  return (await readTokens(file)).map(({ sha256: _hash, ...rest }) => rest);
}

export async function removeServeToken(file: string, name: string): Promise<boolean> {
  return removeToken(file, name);
}
