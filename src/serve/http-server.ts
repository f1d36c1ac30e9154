import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { MAX_MESSAGE_BYTES } from '../mcp/jsonrpc-guard.js';
import { LazySearch } from '../mcp/lazy-search.js';
import { LivePages } from '../mcp/live-pages.js';
import { createWikiMcpServer, type McpWorkspace } from '../mcp/server.js';
import { capRank } from '../wiki/access.js';
import { Freshness } from './freshness.js';
import { RateLimiter, type RateLimit } from './rate-limit.js';
import { TokenBook, type TokenRecord } from './tokens.js';

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
 * Before any tool runs, a request is refused with a status a client can act on: 401 (no or
 * an unknown token; the answer says nothing about the wiki), 403 (a known token this wiki
 * cannot serve: its level is not one of the wiki's), 429 with Retry-After (the token's rate
 * limit). One line per call is logged: time, token name, call, status, bytes, duration.
 */
export async function startWikiServe(workspace: McpWorkspace, options: ServeOptions): Promise<RunningServe> {
  const { log } = options;
  const tokens = new TokenBook(options.tokensFile, log);
  await tokens.load();
  const pages = new LivePages(workspace.root, workspace.schema.contract, { watched: true });
  // The watch and the periodic check keep the index in line; a search never rescans on its own.
  const search = new LazySearch(workspace.root, workspace.schema, workspace.config, options.env, log, { rescanAfterMs: Number.MAX_SAFE_INTEGER });
  const freshness = new Freshness(workspace.root, pages, search, log, options.fullCheckMs);
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
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') return reply(res, 404, 'not found');
    const token = await authenticate(tokens, req.headers.authorization);
    if (!token) return reply(res, 401, 'unauthorized', { 'www-authenticate': 'Bearer' });
    who = token.name;
    const maxRank = capRank(workspace.schema.contract, token.maxVisibility);
    if (maxRank === undefined) {
      return reply(res, 403, `forbidden: this token's visibility level "${token.maxVisibility}" is not a level this server knows`);
    }
    if (req.method !== 'POST') return reply(res, 405, 'method not allowed: POST JSON-RPC messages to /mcp', { allow: 'POST' });
    const wait = limiter.take(token.name);
    if (wait !== undefined) return reply(res, 429, `too many requests: retry after ${wait} s`, { 'retry-after': String(wait) });
    const body = await readBody(req);
    if (body === undefined) return reply(res, 413, `payload too large: at most ${MAX_MESSAGE_BYTES} bytes`);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return reply(res, 400, 'parse error: the body is not JSON');
    }
    call = callName(message);
    const { server } = createWikiMcpServer(workspace, { env: options.env, log, viewer: { maxRank, user: token.user }, shared });
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
    httpServer.once('error', reject);
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

async function authenticate(tokens: TokenBook, header: string | undefined): Promise<TokenRecord | undefined> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ? tokens.lookup(match[1]) : undefined;
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
