import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WikiConfig } from '../config/schema.js';
import { packageVersion } from '../util/package-root.js';
import type { Schema } from '../wiki/contract.js';
import { LazySearch } from './lazy-search.js';
import { LivePages } from './live-pages.js';
import { registerWikiTools } from './tools.js';

export interface McpWorkspace {
  root: string;
  schema: Schema;
  config: WikiConfig;
}

export interface WikiMcpOptions {
  /** Environment for the search embedder (an embeddings endpoint's key and URL); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where diagnostics go; never stdout, which carries the protocol. */
  log?: (line: string) => void;
}

export interface WikiMcpServer {
  server: McpServer;
  /** Flush the search index. Call after the transport has closed. */
  close(): Promise<void>;
}

const INSTRUCTIONS =
  'Read-only access to a markdown knowledge base ("wiki"). Each page has a key (its file name without .md), ' +
  'frontmatter (title, summary, type, tags, refs, sources) and a markdown body that links to other pages as [[key]]. ' +
  'Start with search_wiki, then read_page for the pages you need; list_pages browses by type or tag; ' +
  'lint_report shows what is broken. Nothing here changes the wiki.';

/** An MCP server exposing the workspace's wiki through four read-only tools. */
export function createWikiMcpServer(workspace: McpWorkspace, options: WikiMcpOptions = {}): WikiMcpServer {
  const log = options.log ?? (() => undefined);
  const search = new LazySearch(workspace.root, workspace.schema, workspace.config, options.env ?? process.env, log);
  const server = new McpServer(
    { name: 'wiki', title: 'wiki', version: packageVersion() },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const pages = new LivePages(workspace.root, workspace.schema.contract);
  registerWikiTools(server, { ...workspace, pages, search, log });
  // Read the pages once the handshake is done, so the first call does not pay for it
  // (seconds on a 10k-page wiki) and `initialize` is never held up by it.
  server.server.oninitialized = () => {
    pages.current().catch((error: unknown) => log(`wiki mcp: could not read the pages: ${(error as Error).message}`));
  };
  return { server, close: () => search.close() };
}
