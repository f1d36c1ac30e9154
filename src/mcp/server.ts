import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { WikiConfig } from '../config/schema.js';
import { packageVersion } from '../util/package-root.js';
import { capRank, type Viewer } from '../wiki/access.js';
import type { Contract, Schema } from '../wiki/contract.js';
import { LazySearch } from './lazy-search.js';
import { LivePages } from './live-pages.js';
import { LiveSchema } from './live-schema.js';
import { Freshness } from './freshness.js';
import { registerWikiTools } from './tools.js';

/** The periodic full check of wiki/ behind the watch. */
const FULL_CHECK_MS = 30_000;

export interface McpWorkspace {
  root: string;
  schema: Schema;
  config: WikiConfig;
}

export interface WikiMcpOptions {
  /** Environment for the search embedder (an embeddings endpoint's key and URL); default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Who is served: the visibility cap, a level of schema.md placed under the contract of
   * each call (a level added while the server runs shifts the ranks), and the user whose
   * scratch scope is visible. Default: mcp.maxVisibility, no user.
   */
  viewer?: ServedViewer;
  /** Where diagnostics go; never stdout, which carries the protocol. */
  log?: (line: string) => void;
  /** Told after each refresh that follows a change on disk (tests wait on it, never on a clock). */
  onRefreshed?: () => void;
  /**
   * Pages and search index kept by the caller and shared by many servers (`wiki serve`
   * makes one server per request); closing the server then leaves them open.
   */
  shared?: { pages: LivePages; search: LazySearch; validator: jsonSchemaValidator };
}

export interface WikiMcpServer {
  server: McpServer;
  /** Flush the search index. Call after the transport has closed. */
  close(): Promise<void>;
}

const INSTRUCTIONS =
  'Read-only access to a markdown knowledge base ("wiki"). Each page has a key (its file name without .md), ' +
  'frontmatter (title, summary, type, tags, refs, sources) and a markdown body that links to other pages as [[key]]. ' +
  'ask_wiki answers a question with the relevant pages in one call; search_wiki, then read_page, digs further; ' +
  'list_pages browses by type or tag; ' +
  'lint_report shows what is broken. Nothing here changes the wiki.';

export interface ServedViewer {
  maxVisibility: string;
  user?: string | undefined;
}

/**
 * The viewer under `contract`. A cap the contract does not know (any more) serves nothing
 * above the least restricted level rather than everything: the server fails closed.
 */
export function viewerUnder(contract: Contract, served: ServedViewer): Viewer {
  return { maxRank: capRank(contract, served.maxVisibility) ?? 0, user: served.user };
}

/** An MCP server exposing the workspace's wiki through five read-only tools. */
export function createWikiMcpServer(workspace: McpWorkspace, options: WikiMcpOptions = {}): WikiMcpServer {
  const log = options.log ?? (() => undefined);
  const search = options.shared?.search ?? new LazySearch(workspace.root, workspace.schema, workspace.config, options.env ?? process.env, log);
  const server = new McpServer(
    { name: 'wiki', title: 'wiki', version: packageVersion() },
    // A shared validator: each server would otherwise build its own (about a millisecond), for nothing a read-only server uses.
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, ...(options.shared ? { jsonSchemaValidator: options.shared.validator } : {}) },
  );
  const pages = options.shared?.pages ?? new LivePages(workspace.root, new LiveSchema(workspace.root, workspace.schema, log), { shared: () => search.sharedRows() });
  const served = options.viewer ?? { maxVisibility: workspace.config.mcp.maxVisibility };
  registerWikiTools(server, {
    root: workspace.root,
    config: workspace.config,
    pages,
    search,
    log,
    viewer: (contract) => viewerUnder(contract, served),
    maxChars: workspace.config.mcp.maxChars,
  });
  if (options.shared) return { server, close: async () => undefined };
  // A page written while the server runs is found by the next search within about a
  // second, not after the index's own rescan interval: the watch refreshes the index.
  const freshness = new Freshness(workspace.root, pages, search, log, FULL_CHECK_MS, options.onRefreshed);
  // Read the pages once the handshake is done, so the first call does not pay for it
  // (seconds on a 10k-page wiki) and `initialize` is never held up by it.
  server.server.oninitialized = () => {
    freshness.start();
    pages.current().catch((error: unknown) => log(`wiki mcp: could not read the pages: ${(error as Error).message}`));
  };
  return {
    server,
    close: async () => {
      freshness.close();
      await search.close();
    },
  };
}
