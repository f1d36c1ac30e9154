import { extractText, isExtractable } from '../../sources/extract.js';
import { sourceLimitsOf } from '../../sources/limits.js';
import type { SearchHits } from '../../search/types.js';
import type { ToolContext, ValidationVerdict, WriteAlongside, WriteObserver } from '../../tools/context.js';
import { DEFAULT_READ_LIMIT } from '../../tools/read-file.js';
import { createTools } from '../../tools/registry.js';
import type { Tool } from '../../agent/tool.js';
import type { WorkspaceFs } from '../../tools/workspace-fs.js';
import type { Mutex } from '../../util/mutex.js';
import { inScopeOf, isSeenBy } from '../../wiki/access.js';
import type { Contract } from '../../wiki/contract.js';
import type { PageIndex } from '../../wiki/page-index.js';
import { parsePage } from '../../wiki/page.js';
import type { WorkspaceHandle } from './workspace-handle.js';

/** The parts of a run the five tools are wired to. */
export interface SessionToolParts {
  ws: WorkspaceHandle;
  fs: WorkspaceFs;
  user: string | undefined;
  /** A read-only run is offered no write tools at all: the model is not invited to try. */
  readOnly: boolean;
  /** Through which every write of every run of the command passes (see SharedWorkspace). */
  changes: Mutex;
  validate(relPath: string, content: string, previous: string | undefined, alongside?: WriteAlongside): Promise<ValidationVerdict>;
  search(query: string, limit: number): Promise<SearchHits>;
  /** Re-index a page the model wrote (a no-op in a dry run). */
  upsert(relPath: string, content: string): Promise<void>;
  observer: WriteObserver;
  sourceFacts: ToolContext['sourceFacts'];
  /** The pages as this run sees them, for who sees what (hiddenFromModel). */
  pages: PageIndex;
}

/**
 * read_file's default window for a context window set in wiki.config.json: a sixth of the
 * window (at 4 characters a token), so two windows, the prompt (about 4,000 tokens with the
 * tools) and a reply fit at the smallest window accepted; never more
 * than the usual default. Unset: the usual default.
 */
export function readLimitFor(contextTokens: number | undefined): number | undefined {
  return contextTokens === undefined ? undefined : Math.min(DEFAULT_READ_LIMIT, Math.floor((contextTokens * 4) / 6));
}

/**
 * The five tools of a run. A write (check, write, bookkeeping) goes through the shared
 * mutex, so runs working at the same time never interleave between a page's check and its
 * write.
 */
export function sessionTools(parts: SessionToolParts): Tool[] {
  const { ws } = parts;
  const ctx: ToolContext = {
    root: ws.root,
    fs: parts.fs,
    contract: ws.schema.contract,
    user: parts.user,
    validator: { validate: (p, content, previous, alongside) => parts.validate(p, content, previous, alongside) },
    // A run works on the wiki as it is: waiting proposals (in a committed review folder too) are not for the model to read.
    deny: [...ws.config.config.sandbox.deny, `${ws.config.config.reviewFolder}/**`],
    hides: (p, text) => hiddenFromModel(ws.schema.contract, parts.pages, parts.user, p, text),
    writeLimits: ws.config.config.limits,
    searchQueryChars: ws.config.config.limits.searchQueryChars,
    search: { search: (query, limit) => parts.search(query, limit), upsert: (p, content) => parts.upsert(p, content) },
    observer: parts.observer,
    textExtractor: async (p, bytes) => (isExtractable(p) ? (await extractText(p, bytes, sourceLimitsOf(ws.config.config.limits))).text : undefined),
    extractable: (p) => isExtractable(p),
    sourceFacts: parts.sourceFacts,
    readLimit: readLimitFor(ws.config.config.contextTokens),
  };
  const tools = createTools(ctx);
  return parts.readOnly
    ? tools.filter((tool) => !tool.mutates)
    : tools.map((tool) => (tool.mutates ? throughChanges(tool, parts.changes) : tool));
}

/** A mutating tool whose every step that may write (a call, a turn's held calls settled) holds the shared mutex. */
function throughChanges(tool: Tool, changes: Mutex): Tool {
  const { openTurn } = tool;
  return {
    ...tool,
    run: (args, signal) => changes.run(() => tool.run(args, signal)),
    ...(openTurn === undefined
      ? {}
      : {
          openTurn(calls) {
            const batch = openTurn.call(tool, calls);
            return {
              run: (index, args, signal) => changes.run(() => batch.run(index, args, signal)),
              settle: (signal) => changes.run(() => batch.settle(signal)),
              ...(batch.settlesAfter === undefined ? {} : { settlesAfter: batch.settlesAfter }),
            };
          },
        }),
  };
}

/**
 * Whether the model working for `user` may not see `relPath` (the rule of wiki/access.ts):
 * another user's scratch folder or page, or a page not surfaced, judged by `text` when the
 * page was just read, else by the page as this run knows it.
 */
export function hiddenFromModel(contract: Contract, pages: PageIndex, user: string | undefined, relPath: string, text?: string): boolean {
  if (!inScopeOf(relPath, user)) return true;
  if (!relPath.startsWith('wiki/') || !relPath.toLowerCase().endsWith('.md')) return false;
  const page = text !== undefined ? parsePage(relPath, text, contract) : pages.atPath(relPath);
  return page !== undefined && !isSeenBy(page, user);
}
