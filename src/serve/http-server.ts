import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { UsageError } from '../errors.js';
import { Freshness } from '../mcp/freshness.js';
import { MAX_MESSAGE_BYTES } from '../mcp/jsonrpc-guard.js';
import { LazySearch } from '../mcp/lazy-search.js';
import { LivePages } from '../mcp/live-pages.js';
import { LiveSchema } from '../mcp/live-schema.js';
import { createWikiMcpServer, type McpWorkspace } from '../mcp/server.js';
import { capRank } from '../wiki/access.js';
import { isOAuthProbe, OAUTH_ANSWER, unauthorized } from './refusals.js';
import { RateLimiter, type RateLimit } from './rate-limit.js';
import { TokenBook } from './tokens.js';
import { readWikiId } from './wiki-id.js';

export interface ServeOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  tokensFile: string;
  rateLimit: RateLimit;
  /** The periodic full check of wiki/ behind the watch (ms). */
  fullCheckMs: number;
  env: NodeJS.ProcessEnv;
  /** Notices for the operator, and the one line per call. Never stdout's URL line. */
  log: (line: string) => void;
  /** Told after each refresh of the pages that follows a change on disk (tests wait on it). */
  onRefreshed?: () => void;
}

export interface RunningServe {
  url: string;
  close(): Promise<void>;
}

/**
 * `wiki serve`: the read-only tools of `wiki mcp` (mcp/tools.ts, unchanged) over the MCP
 * Streamable HTTP transport of the official SDK, at /mcp. Stateless: each POST gets its own
 * MCP server, made for the caller its bearer token names (visibility cap and user scope),
 * over one page index and one search index shared by all, kept fresh by a watch on wiki/.
 *
 * Before any tool runs, a request is refused with a status a client can act on: 401 (no
 * token, or one that is not recognised: unknown, revoked or another wiki's, told apart from
 * none only by "missing" or "not recognised"; the answer names nothing of the wiki), 403 (a
 * token of this wiki whose level schema.md no longer declares), 429 with Retry-After (the
 * token's rate limit, counted in JSON-RPC calls: a batch of 40 is 40). One line per call is
 * logged: time, token name, call, status, bytes, duration.
 */
export async function startWikiServe(workspace: McpWorkspace, options: ServeOptions): Promise<RunningServe> {
  const { log } = options;
  const tokens = new TokenBook(options.tokensFile, log, () => readWikiId(workspace.root));
  await tokens.load();
  const schema = new LiveSchema(workspace.root, workspace.schema, log);
  // The watch and the periodic check keep the index in line; a search never rescans on its own.
  const search = new LazySearch(workspace.root, workspace.schema, workspace.config, options.env, log, { rescanAfterMs: Number.MAX_SAFE_INTEGER });
  const pages = new LivePages(workspace.root, schema, { watched: true, shared: () => search.sharedRows() });
  const freshness = new Freshness(workspace.root, pages, search, log, options.fullCheckMs, options.onRefreshed);
  const limiter = new RateLimiter(options.rateLimit);
  const shared = { pages, search, validator: new AjvJsonSchemaValidator() };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    let who = '-';
    let call = '-';
    const size = countBytes(res);
    res.on('close', () => {
      log(`${new Date().toISOString()} token=${who} call=${call} status=${res.statusCode} bytes=${size()} ms=${Math.round(performance.now() - started)}`);
    });
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (isOAuthProbe(pathname)) return reply(res, 404, OAUTH_ANSWER);
    if (pathname !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    const presented = bearerToken(req.headers.authorization);
    const token = presented === undefined ? undefined : await tokens.lookup(presented);
    if (!token) return reply(res, 401, unauthorized(presented === undefined ? 'missing' : 'not recognised'), { 'www-authenticate': 'Bearer' });
    who = token.name;
    // The levels of schema.md now: one added while the server runs counts at once.
    const maxRank = capRank(schema.current().contract, token.maxVisibility);
    if (maxRank === undefined) {
      return reply(res, 403, `forbidden: this token's visibility level "${token.maxVisibility}" is not a level this server knows`);
    }
    if (req.method !== 'POST') return reply(res, 405, 'method not allowed: POST JSON-RPC messages to /mcp', { allow: 'POST' });
    const body = await readBody(req);
    if (body === undefined) return reply(res, 413, `payload too large: at most ${MAX_MESSAGE_BYTES} bytes`);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      message = undefined;
    }
    // Each JSON-RPC message is a call against the limit, however many one POST carries.
    const calls = Array.isArray(message) ? Math.max(1, message.length) : 1;
    if (calls > options.rateLimit.requests) {
      return reply(res, 429, `too many requests: a batch of ${calls} calls is more than this token may make (${options.rateLimit.requests} per ${options.rateLimit.perSeconds} s); send fewer at a time`);
    }
    const wait = limiter.take(token.name, calls);
    if (wait !== undefined) return reply(res, 429, `too many requests: retry after ${wait} s`, { 'retry-after': String(wait) });
    if (message === undefined) return reply(res, 400, 'parse error: the body is not JSON');
    call = callName(message);
    const { server } = createWikiMcpServer(workspace, { env: options.env, log, viewer: { maxVisibility: token.maxVisibility, user: token.user }, shared });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`wiki serve: ${(error as Error).message}`);
      if (!res.headersSent) reply(res, 500, 'internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new UsageError(`port ${options.port} on ${options.host} is taken: another program listens there`, 'pick another with --port N, or --port 0 for a free one'));
      else if (error.code === 'EACCES') reject(new UsageError(`port ${options.port} on ${options.host} needs more privileges than this user has`, 'pick a port above 1023, or --port 0 for a free one'));
      else reject(error);
    });
    httpServer.listen(options.port, options.host, () => resolve());
  });
  freshness.start();
  // Read the pages and open the index now, so the first call does not pay for it.
  void pages.current().catch((error: unknown) => log(`wiki serve: could not read the pages: ${(error as Error).message}`));
  void search.index().catch((error: unknown) => log(`wiki serve: could not open the search index: ${(error as Error).message}`));
  const address = httpServer.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/mcp`,
    close: async () => {
      freshness.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await search.close();
    },
  };
}

/** Whether `host` is a loopback address (served to this machine only). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The bearer token the request presents; undefined when it presents none (no header, another scheme, no value). */
function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** A refusal as a JSON-RPC error body (clients read those), saying only what `message` says. */
function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000 - status, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_MESSAGE_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The call a JSON-RPC message (or batch) makes: a tool's name for tools/call, else the method. */
function callName(message: unknown): string {
  const one = (m: unknown): string => {
    const { method, params } = (m ?? {}) as { method?: unknown; params?: { name?: unknown } };
    if (method === 'tools/call' && typeof params?.name === 'string') return params.name.replace(/[^\w.-]/g, '?').slice(0, 64);
    return typeof method === 'string' ? method.replace(/[^\w./-]/g, '?').slice(0, 64) : 'response';
  };
  return Array.isArray(message) ? message.map(one).join(',') : one(message);
}

/** Count the bytes written to `res`; returns the reader. */
function countBytes(res: ServerResponse): () => number {
  let bytes = 0;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const count = (chunk: unknown): void => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) bytes += chunk.length;
  };
  res.write = ((...args: unknown[]) => {
    count(args[0]);
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') count(args[0]);
    return end(...args);
  }) as ServerResponse['end'];
  return () => bytes;
}
