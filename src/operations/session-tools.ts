import { extractText, isExtractable } from '../sources/extract.js';
import { sourceLimitsOf } from '../sources/limits.js';
import type { SearchResult } from '../search/types.js';
import type { ToolContext, ValidationVerdict, WriteObserver } from '../tools/context.js';
import { createTools } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import type { WorkspaceFs } from '../tools/workspace-fs.js';
import type { Mutex } from '../util/mutex.js';
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
  validate(relPath: string, content: string, previous: string | undefined): Promise<ValidationVerdict>;
  search(query: string, limit: number): Promise<readonly SearchResult[]>;
  /** Re-index a page the model wrote (a no-op in a dry run). */
  upsert(relPath: string, content: string): Promise<void>;
  observer: WriteObserver;
  sourceFacts: ToolContext['sourceFacts'];
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
    validator: { validate: (p, content, previous) => parts.validate(p, content, previous) },
    deny: ws.config.config.sandbox.deny,
    writeLimits: ws.config.config.limits,
    searchQueryChars: ws.config.config.limits.searchQueryChars,
    search: { search: (query, limit) => parts.search(query, limit), upsert: (p, content) => parts.upsert(p, content) },
    observer: parts.observer,
    textExtractor: async (p, bytes) => (isExtractable(p) ? (await extractText(p, bytes, sourceLimitsOf(ws.config.config.limits))).text : undefined),
    extractable: (p) => isExtractable(p),
    sourceFacts: parts.sourceFacts,
  };
  const tools = createTools(ctx);
  return parts.readOnly
    ? tools.filter((tool) => !tool.mutates)
    : tools.map((tool) => (tool.mutates ? { ...tool, run: (args, signal) => parts.changes.run(() => tool.run(args, signal)) } : tool));
}
