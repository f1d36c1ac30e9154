import { UsageError } from '../errors.js';
import type { McpWorkspace } from '../mcp/server.js';
import { MCP_TOOL_NAMES } from '../mcp/tools.js';
import { capRank, visibilityLevels } from '../wiki/access.js';
import { isLoopback, startWikiServe } from './http-server.js';
import { parseRateLimit, type RateLimit } from './rate-limit.js';
import { addToken, readTokens, removeToken, requireOutsideWorkspace, TokenBook, type TokenRecord } from './tokens.js';
import { requireOwnersOnly } from './tokens-file.js';
import { ensureWikiId, readWikiId, WIKI_ID_FILE } from './wiki-id.js';

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
  if (!rateLimit) throw new UsageError(`--rate-limit must be N or N/SECONDS (got ${flags.rateLimit})`, 'e.g. --rate-limit 120/60: 120 calls a minute per token');
  requireOutsideWorkspace(flags.tokens, workspace.root);
  requireOwnersOnly(flags.tokens);
  const wiki = readWikiId(workspace.root);
  const { mine: count, unbound } = await new TokenBook(flags.tokens, io.log, () => wiki).load();
  if (count === 0) {
    const older = unbound > 0 ? `; ${unbound} token(s) there were made before tokens belonged to one wiki and are accepted by none` : '';
    throw new UsageError(
      `no token for this wiki in ${flags.tokens}: every call would be refused${older}`,
      `add one with \`wiki serve token add NAME --max-visibility internal\` in this wiki (it is printed once)${wiki === undefined ? `; it makes ${WIKI_ID_FILE}, which you commit` : ''}`,
    );
  }
  if (!isLoopback(flags.host)) {
    io.log(`warning: serving on ${flags.host}, reachable from other machines: every call needs a token, but the traffic is not encrypted — put a TLS proxy in front`);
  }
  const running = await startWikiServe(workspace, { host: flags.host, port, tokensFile: flags.tokens, rateLimit, fullCheckMs: FULL_CHECK_MS, env: io.env, log: io.log });
  io.announce(running.url);
  io.log(`wiki serve: serving ${workspace.root} (wiki ${wiki}; read-only: ${MCP_TOOL_NAMES.join(', ')}) to ${count} token(s) from ${flags.tokens}`);
  const why = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  io.log(`wiki serve: stopping (${why})`);
  await running.close();
}

/**
 * `wiki serve token add`: the level must be one of this wiki's; the file must lie outside it.
 * The token is for this wiki (its id, made on first use: `onIdMade` hears of it).
 */
export async function addServeToken(
  workspace: McpWorkspace,
  file: string,
  spec: { name: string; maxVisibility: string; user?: string | undefined },
  onIdMade: (file: string) => void = () => undefined,
): Promise<{ token: string; record: TokenRecord; file: string }> {
  if (capRank(workspace.schema.contract, spec.maxVisibility) === undefined) {
    throw new UsageError(`"${spec.maxVisibility}" is not a visibility level of this wiki`, `schema.md declares: ${visibilityLevels(workspace.schema.contract).levels.join(', ')}`);
  }
  requireOutsideWorkspace(file, workspace.root);
  const wiki = ensureWikiId(workspace.root, onIdMade);
  return { ...(await addToken(file, { ...spec, wiki })), file };
}

/** Every token in the file (never the hash), with the wiki each is for; `wiki` is this wiki's id, when run in one. */
export async function listServeTokens(file: string, root: string | undefined): Promise<{ wiki: string | undefined; tokens: Array<Omit<TokenRecord, 'sha256'>> }> {
  const wiki = root === undefined ? undefined : readWikiId(root);
  return { wiki, tokens: (await readTokens(file)).map(({ sha256: _hash, ...rest }) => rest) };
}

export async function removeServeToken(file: string, name: string, root: string): Promise<boolean> {
  return removeToken(file, name, readWikiId(root));
}
