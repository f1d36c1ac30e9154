import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { WikiConfig } from '../config/schema.js';
import { isWikiError, UsageError } from '../errors.js';
import { laneWarnings, requireAnsweringLane } from '../operations/inspect/search.js';
import { lintWorkspace } from '../operations/lint/lint.js';
import { wrongKindOfStateFile } from '../state/wrong-kind.js';
import type { Viewer } from '../wiki/access.js';
import type { Contract } from '../wiki/contract.js';
import { askWiki } from './ask.js';
import { fitToBudget } from './budget.js';
import type { LazySearch } from './lazy-search.js';
import type { LivePages } from './live-pages.js';
import { lintPage } from './lint-views.js';
import { keyRefusal, listPages, pageDetail } from './page-views.js';
import { servedView, type ServedPages } from '../wiki/served-pages.js';
import { servedFindings, servedJudgedSearch } from './served-search.js';
import { servedReader } from './served-text.js';

export const MCP_TOOL_NAMES = ['search_wiki', 'read_page', 'list_pages', 'lint_report', 'ask_wiki'] as const;

export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 500;
/** A large wiki can have thousands of findings (megabytes of JSON): more than any agent should read at once. */
export const DEFAULT_LINT_LIMIT = 100;
export const MAX_LINT_LIMIT = 1000;
const CLOSE_MATCHES = 3;

export interface McpToolContext {
  root: string;
  config: WikiConfig;
  pages: LivePages;
  search: LazySearch;
  /** Who is served under the contract now: the visibility cap and the user whose scratch scope is visible. */
  viewer: (contract: Contract) => Viewer;
  /** The most characters one tool answer may hold. */
  maxChars: number;
  log: (line: string) => void;
}

/** Every tool only reads: clients may call them without asking the user each time. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const searchArgs = z.strictObject({
  query: z.string().min(1).describe('Words to look for: a concept, name or question'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .optional()
    .describe(`How many pages to return; default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}`),
});

const readArgs = z.strictObject({
  key: z.string().min(1).describe('The page key: its file name without .md, e.g. "scaled-dot-product-attention"'),
});

const listArgs = z.strictObject({
  type: z.string().min(1).optional().describe('Only pages of this type (see the schema: e.g. source, concept, entity)'),
  tag: z.string().min(1).optional().describe('Only pages carrying this tag (case-insensitive)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_LIMIT)
    .optional()
    .describe(`How many pages per call; default ${DEFAULT_LIST_LIMIT}, at most ${MAX_LIST_LIMIT}`),
  offset: z.number().int().min(0).optional().describe('Skip this many matching pages (use nextOffset from the previous call)'),
});

const lintArgs = z.strictObject({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LINT_LIMIT)
    .optional()
    .describe(`How many findings per call, errors first; default ${DEFAULT_LINT_LIMIT}, at most ${MAX_LINT_LIMIT}`),
  offset: z.number().int().min(0).optional().describe('Skip this many findings (use nextOffset from the previous call)'),
});

export function registerWikiTools(server: McpServer, ctx: McpToolContext): void {
  markSdkToolErrors(server);
  server.registerTool(
    'search_wiki',
    {
      title: 'Search the wiki',
      description:
        'Hybrid search over the wiki\'s pages (lexical BM25, semantic and term matching). Returns the best pages, strongly ' +
        'about the query first (strength strong or weak; strong: false when none is), with key, path, title, summary, score, ' +
        'the lanes that matched, a snippet, and their links and backlinks; a "quoted phrase" no page holds is searched as its ' +
        'words and named in phrasesNotFound. ' +
        'Use read_page with a result\'s key for the whole page.',
      inputSchema: searchArgs,
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(ctx, 'search_wiki', async () => {
        const served = await servedPages(ctx);
        const index = await ctx.search.index();
        const reading = { servedVersion: (pagePath: string) => ctx.pages.servedVersion(pagePath), readPage: servedReader((pagePath) => ctx.pages.textAt(pagePath), served) };
        const answer = await servedJudgedSearch(index, served, args.query, args.limit ?? DEFAULT_SEARCH_LIMIT, reading);
        ctx.search.tellLeftOut(index);
        requireLanes(answer.lanes);
        const warnings = laneWarnings(answer.lanes, index.info().embedder);
        return json(ctx, { found: answer.results.length > 0, ...answer, warnings });
      }),
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a wiki page',
      description:
        'One wiki page by key (its file name without .md): frontmatter, markdown body, the keys it links to (and which of ' +
        'those do not exist), and the keys of the pages that link to it. An unknown key is answered with found: false, ' +
        'the key echoed and close matches.',
      inputSchema: readArgs,
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(ctx, 'read_page', async () => {
        const index = await servedPages(ctx);
        const refusal = keyRefusal(args.key, (key) => index.has(key));
        if (refusal) return toolError(refusal);
        const key = args.key.trim();
        const page = index.get(key);
        if (!page) {
          // An answer, not an error: the caller asked for one page by name and learns it is not there,
          // with the keys it may have meant (only served pages, so a hidden page stays unknown).
          const closeMatches = index.closeMatches(key, CLOSE_MATCHES);
          const hint =
            closeMatches.length > 0
              ? `no page has this key; close matches: ${closeMatches.join(', ')}`
              : 'no page has this key; use search_wiki or list_pages to find pages';
          return json(ctx, { found: false, key, closeMatches, hint });
        }
        return json(ctx, { found: true, ...pageDetail(page, index) });
      }),
  );

  server.registerTool(
    'list_pages',
    {
      title: 'List wiki pages',
      description:
        'The wiki\'s content pages in path order (the index and log pages are left out): key, path, title, summary, type ' +
        'and tags, optionally filtered by type or tag, a window at a time. The answer gives the total and the next offset.',
      inputSchema: listArgs,
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(ctx, 'list_pages', async () => {
        const index = await servedPages(ctx);
        const contract = ctx.pages.contract;
        const types = Object.keys(contract.types);
        if (args.type !== undefined && !types.includes(args.type)) {
          return toolError(`unknown page type "${args.type}"; the schema defines: ${types.join(', ')}`);
        }
        const list = listPages(index.pages(), contract, {
          type: args.type,
          tag: args.tag,
          limit: args.limit ?? DEFAULT_LIST_LIMIT,
          offset: args.offset ?? 0,
        });
        return json(ctx, { found: list.total > 0, filters: { type: args.type ?? null, tag: args.tag ?? null }, ...list });
      }),
  );

  server.registerTool(
    'lint_report',
    {
      title: 'Check the wiki',
      description:
        'Validate the whole wiki against its schema, as `wiki lint` does without fixing anything: broken links, missing ' +
        'fields and sources, orphan and unindexed pages, duplicate keys, log format. Returns the error and warning counts, ' +
        'the count per rule, and the findings (rule, severity, path, line, message, fix), errors first, a window at a time.',
      inputSchema: lintArgs,
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(ctx, 'lint_report', async () => {
        const served = await servedPages(ctx);
        const report = await lintWorkspace(ctx.root, ctx.pages.currentSchema(), ctx.config, { fix: false });
        const findings = servedFindings(report.findings, served);
        const errors = findings.filter((finding) => finding.severity === 'error').length;
        const visible = { ...report, findings, errors, warnings: findings.length - errors };
        const page = lintPage(visible, { limit: args.limit ?? DEFAULT_LINT_LIMIT, offset: args.offset ?? 0 });
        return json(ctx, { found: page.total > 0, ...page });
      }),
  );

  server.registerTool(
    'ask_wiki',
    {
      title: 'Ask the wiki',
      description:
        'Everything needed to answer a question from the wiki, in one call: an evidence pack of the pages most relevant ' +
        'to it (hybrid search), the pages their refs and [[links]] lead to (up to two hops), each with its passages best ' +
        'matching the question, the chain of links followed, and their index entries, within the answer budget. ' +
        'Answer from these pages and cite them as [[key]]; read_page gives a whole page; found is false when nothing matched.',
      inputSchema: askArgs,
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(ctx, 'ask_wiki', async () => {
        const served = await servedPages(ctx);
        const index = await ctx.search.index();
        const answer = await askWiki(index, served, ctx.pages.contract, args.question, ctx.maxChars, ctx.config.query, { servedVersion: (pagePath) => ctx.pages.servedVersion(pagePath) });
        ctx.search.tellLeftOut(index);
        requireLanes(answer.lanes);
        return json(ctx, { ...answer, warnings: laneWarnings(answer.lanes, index.info().embedder) });
      }),
  );
}

const askArgs = z.strictObject({
  question: z.string().min(1).describe('The question to answer from the wiki, in plain words'),
});

async function servedPages(ctx: McpToolContext): Promise<ServedPages> {
  const index = await ctx.pages.current();
  return servedView(index, ctx.pages.contract, ctx.viewer(ctx.pages.contract));
}

/**
 * What a tool error means, in `_meta.outcome`, so a client tells apart what its text says:
 * `not_configured` (search set up with no lane), `failing` (a lane, the index or the disk
 * failed: trying later may help), `invalid` (the arguments). A real no-match is no error
 * but an answer with `found: false`; a caller refused is refused before any tool runs.
 */
export type ToolOutcome = 'not_configured' | 'failing' | 'invalid';

class OutcomeError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly outcome: ToolOutcome,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** `requireAnsweringLane`, its refusal marked: not configured when no lane failed, else failing. */
function requireLanes(lanes: Parameters<typeof requireAnsweringLane>[0]): void {
  try {
    requireAnsweringLane(lanes);
  } catch (error) {
    throw new OutcomeError(error, Object.values(lanes).some((state) => state.startsWith('failed')) ? 'failing' : 'not_configured');
  }
}

/** A tool's failure goes back to the client as a tool error; an unexpected one is logged too. */
async function guarded(ctx: McpToolContext, tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (thrown) {
    const outcome = thrown instanceof OutcomeError ? thrown.outcome : undefined;
    const error = thrown instanceof OutcomeError ? thrown.cause : thrown;
    if (isWikiError(error)) {
      return toolError(error.hint ? `${error.message} — ${error.hint}` : error.message, outcome ?? (error instanceof UsageError ? 'invalid' : 'failing'));
    }
    const message = wrongKindOfStateFile(error) ?? (error instanceof Error ? error.message : String(error));
    ctx.log(`wiki mcp: ${tool} failed: ${message}`);
    return toolError(`${tool} failed: ${message}`, 'failing');
  }
}

/** A tool's answer as JSON, cut to the budget (saying what was cut) when longer. */
function json(ctx: McpToolContext, value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: fitToBudget(value, ctx.maxChars) }] };
}

/**
 * The errors the SDK itself answers a tools/call with (arguments that fail the tool's input
 * schema, an unknown tool) carry `_meta.outcome: invalid` too, so every tool error says what
 * it means. The SDK makes them in one method; it is wrapped per server.
 */
function markSdkToolErrors(server: McpServer): void {
  const sdk = server as unknown as { createToolError?: (message: string) => CallToolResult };
  const make = sdk.createToolError?.bind(server);
  if (!make) return;
  sdk.createToolError = (message) => ({ ...make(message), _meta: { outcome: 'invalid' satisfies ToolOutcome } });
}

function toolError(message: string, outcome: ToolOutcome = 'invalid'): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true, _meta: { outcome } };
}
