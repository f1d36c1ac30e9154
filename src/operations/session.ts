import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceHandle } from './workspace-handle.js';
import { autoCommit } from '../git/auto-commit.js';
import type { SearchIndex } from '../search/index.js';
import { extractText, isExtractable } from '../sources/extract.js';
import { beginRun, finishRun, recordAfter, recordBefore, type Run, type RunStatus } from '../state/history.js';
import { humanEditBase } from '../state/human-edits.js';
import type { ToolContext, WriteChange } from '../tools/context.js';
import { RunSourceFacts } from './source-facts.js';
import { createTools } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import { DiskFs, OverlayFs, type WorkspaceFs } from '../tools/workspace-fs.js';
import { packageRoot } from '../util/package-root.js';
import type { LaneWarning } from './search.js';
import { searchAsModel } from './model-search.js';
import { ModelWriteCheck } from './model-write-check.js';
import { removeAbandonedTempFiles } from '../util/fs.js';
import type { RunVersions } from './page-versions.js';
import { SharedWorkspace } from './shared-workspace.js';
import { isSpecialPage, spokePagePath } from '../wiki/contract.js';
import { planIndex, type IndexFiles } from '../wiki/index-catalog.js';
import { formatLogEntry } from '../wiki/log.js';
import { recordLogEntry } from '../wiki/log-ledger.js';
import type { PageIndex } from '../wiki/page-index.js';
import { parsePage, type Page } from '../wiki/page.js';
import type { Finding } from '../wiki/validate/finding.js';
import { validateWrite } from '../wiki/validate-write.js';

export interface SessionOptions {
  op: string;
  title: string;
  runId: string;
  /** Tools write to an in-memory overlay; nothing under the workspace changes. */
  dryRun: boolean;
  /** The model may not write at all (a query without --save, lint without --fix). */
  readOnly: boolean;
  /** `--overwrite-edits`: the model may drop what a human changed on a page, for this run. */
  overwriteEdits?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Whose scratch scope the model sees (wiki/user/<name>/); default WIKI_USER from `env`. */
  user?: string | undefined;
}

/**
 * Everything one mutating (or read-only) run works with: the file layer (disk, or an
 * overlay in a dry run), the in-memory page index the validator checks writes against,
 * the search index, run history for undo, and the five tools wired to all of them.
 */
export class Session {
  readonly fs: WorkspaceFs;
  readonly overlay: OverlayFs | undefined;
  readonly tools: Tool[];
  /** Files changed in this run, workspace-relative, in first-change order. */
  readonly changed = new Map<string, WriteChange>();
  /** Other files the run changed outside the tools (log, stale marks, copied sources), for git. */
  readonly alsoChanged = new Set<string>();
  readonly writeCheck: ModelWriteCheck;
  private readonly sourceFacts: RunSourceFacts;
  /** Each changed file's content before this run first changed it, and after its last change. */
  private readonly contentBefore = new Map<string, string | undefined>();
  private readonly contentAfter = new Map<string, string>();
  readonly pages: PageIndex;
  readonly search: SearchIndex;
  /** Which version of each page this run last saw (see page-versions.ts). */
  readonly versions: RunVersions;

  private constructor(
    readonly ws: WorkspaceHandle,
    readonly options: SessionOptions,
    readonly shared: SharedWorkspace,
    /** The session opened `shared` for itself and closes it when it finishes. */
    private readonly ownsShared: boolean,
    readonly run: Run | undefined,
  ) {
    this.pages = shared.pages;
    this.search = shared.search;
    this.versions = shared.versions.open(options.runId, options.title);
    const pages = this.pages;
    this.writeCheck = new ModelWriteCheck(ws.root, ws.schema.contract, pages, {
      overwriteEdits: options.overwriteEdits === true,
      dryRun: options.dryRun,
      writtenThisRun: (relPath) => this.changed.has(relPath),
    });
    this.sourceFacts = new RunSourceFacts(ws.root);
    this.overlay = options.dryRun ? new OverlayFs(ws.root, new DiskFs(ws.root)) : undefined;
    this.fs = this.overlay ?? new DiskFs(ws.root);
    const ctx: ToolContext = {
      root: ws.root,
      fs: this.fs,
      contract: ws.schema.contract,
      user: this.user,
      validator: {
        validate: async (p, content, previous) => {
          const stale = this.versions.staleWrite(p, previous);
          return stale ? { ok: false, errors: [stale], warnings: [] } : this.writeCheck.validate(p, content, previous);
        },
      },
      deny: ws.config.config.sandbox.deny,
      writeLimits: ws.config.config.limits,
      search: {
        search: async (query, limit) => (await searchAsModel(this.search, this.pages, this.user, this.laneWarnings, query, limit)).results,
        upsert: async (p, content) => {
          if (!options.dryRun) await this.search.upsertPage(p, content);
        },
      },
      observer: {
        beforeWrite: async (p, previous) => {
          this.versions.changing(p, previous);
          if (!this.contentBefore.has(p)) this.contentBefore.set(p, previous);
          if (this.run) await recordBefore(this.run, p, previous);
        },
        afterWrite: async (p, change) => this.afterWrite(p, change),
        noteFor: async (p) => this.humanEditNote(p),
        afterRead: (p, text) => this.versions.saw(p, text),
      },
      textExtractor: async (p, bytes) => (isExtractable(p) ? (await extractText(p, bytes)).text : undefined),
      extractable: (p) => isExtractable(p),
      sourceFacts: this.sourceFacts.lookup,
    };
    const tools = createTools(ctx);
    // A read-only run is offered no write tools at all: the model is not invited to try.
    // A write (check, write, bookkeeping) goes through the shared mutex, so runs working at
    // the same time never interleave between a page's check and its write.
    this.tools = options.readOnly
      ? tools.filter((tool) => !tool.mutates)
      : tools.map((tool) => (tool.mutates ? { ...tool, run: (args, signal) => shared.changes.run(() => tool.run(args, signal)) } : tool));
  }

  /**
   * Open a run. With `shared`, it works beside the other runs of the same command (one page
   * index, one search index, one write mutex); without, it opens its own.
   */
  static async open(ws: WorkspaceHandle, options: SessionOptions, shared?: SharedWorkspace): Promise<Session> {
    const workspace = shared ?? (await SharedWorkspace.open(ws, { env: options.env ?? process.env, persist: !options.dryRun }));
    const run = options.dryRun || options.readOnly ? undefined : await beginRun(ws.root, options.runId, options.op, options.title);
    return new Session(ws, options, workspace, shared === undefined, run);
  }

  get root(): string {
    return this.ws.root;
  }

  abs(relPath: string): string {
    return path.join(this.ws.root, relPath);
  }

  /** Lanes the model's searches had to do without in this run, one warning per lane. */
  readonly laneWarnings = new Map<string, LaneWarning>();

  /** Whose scratch scope this run sees. */
  get user(): string | undefined {
    return this.options.user ?? ((this.options.env ?? process.env).WIKI_USER?.trim() || undefined);
  }

  /** Content pages (not index, log or spokes) currently known, including this run's writes. */
  contentPages(): Page[] {
    return this.pages.pages().filter((page) => !isSpecialPage(this.ws.schema.contract, page.path));
  }

  /** Write a file outside the model's tools (saved answers, index, fixes), recorded like a tool write. */
  async writeFile(relPath: string, content: string): Promise<WriteChange | undefined> {
    const abs = this.abs(relPath);
    const previous = (await this.fs.exists(abs)) ? await this.fs.readText(abs) : undefined;
    if (previous === content) return undefined;
    this.versions.changing(relPath, previous);
    if (this.run) await recordBefore(this.run, relPath, previous);
    await this.fs.writeText(abs, content);
    const change: WriteChange = previous === undefined ? 'created' : 'updated';
    await this.afterWrite(relPath, change);
    if (relPath.endsWith('.md') && !isSpecialPage(this.ws.schema.contract, relPath) && !this.options.dryRun) {
      await this.search.upsertPage(relPath, content);
    }
    return change;
  }

  /** Regenerate index.md's catalog (and hub spokes) from the pages as they now stand. */
  async refreshIndex(): Promise<string[]> {
    const contract = this.ws.schema.contract;
    const files: IndexFiles = {
      indexText: await this.readIfExists(contract.index),
      fallbackIndexText: await readFile(path.join(packageRoot(), 'templates', 'index.md'), 'utf8'),
      spokeTexts: new Map(),
    };
    for (const type of Object.keys(contract.types)) {
      const spoke = spokePagePath(contract, type);
      const text = await this.readIfExists(spoke);
      if (text !== undefined) files.spokeTexts.set(spoke, text);
    }
    const plan = planIndex({ pages: this.pages.pages(), contract, hubThreshold: this.ws.config.config.index.hubThreshold }, files);
    const touched: string[] = [];
    for (const write of plan.writes) {
      if (await this.writeFile(write.path, write.content)) touched.push(write.path);
    }
    for (const stale of plan.deletes) {
      if (await this.deleteFile(stale)) touched.push(stale);
    }
    return touched;
  }

  /** Delete a generated file (a hub spoke no longer needed), recorded for undo; not in a dry run. */
  async deleteFile(relPath: string): Promise<boolean> {
    if (this.options.dryRun) return false;
    const previous = await this.readIfExists(relPath);
    if (previous === undefined) return false;
    this.versions.changing(relPath, previous);
    if (this.run) await recordBefore(this.run, relPath, previous);
    await rm(this.abs(relPath), { force: true });
    if (this.run) await recordAfter(this.run, relPath, undefined);
    this.pages.remove(relPath);
    this.alsoChanged.add(relPath);
    return true;
  }

  /** Append one `## [date] op | title` entry to log.md (the log is only ever appended to). */
  async appendLog(op: string, title: string, lines: string[]): Promise<string> {
    const logPath = this.ws.schema.contract.log;
    const entry = formatLogEntry(op, title, lines, undefined, this.options.runId);
    const existing = (await this.readIfExists(logPath)) ?? '# Log\n';
    const lead = existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    await this.fs.appendText(this.abs(logPath), `${lead}${entry}`);
    if (!this.options.dryRun) await recordLogEntry(this.ws.root, this.options.runId, entry.split('\n')[0] ?? entry, existing);
    this.alsoChanged.add(logPath);
    return entry;
  }

  /** Re-check the pages this run touched against the whole wiki as it now stands. */
  async revalidateTouched(): Promise<Finding[]> {
    const findings: Finding[] = [];
    for (const relPath of this.changed.keys()) {
      if (!relPath.endsWith('.md') || isSpecialPage(this.ws.schema.contract, relPath)) continue;
      const content = await this.readIfExists(relPath);
      if (content === undefined) continue;
      const verdict = validateWrite(this.pages, { path: relPath, content }, {
        contract: this.ws.schema.contract,
        rawExists: (raw) => existsSync(this.abs(raw.split('#')[0] ?? raw)),
      });
      findings.push(...verdict.errors, ...verdict.warnings);
    }
    return findings;
  }

  /** Re-read pages changed on disk outside the tools (e.g. stale marks) into the page index. */
  async reloadPages(relPaths: readonly string[]): Promise<void> {
    for (const relPath of relPaths) {
      const text = await this.readIfExists(relPath);
      if (text === undefined) this.pages.remove(relPath);
      else this.pages.upsert(parsePage(relPath, text, this.ws.schema.contract));
    }
  }

  /** Content pages created / updated by this run. */
  pageChanges(): { created: string[]; updated: string[] } {
    const created: string[] = [];
    const updated: string[] = [];
    for (const [relPath, change] of this.changed) {
      if (!relPath.startsWith('wiki/') || isSpecialPage(this.ws.schema.contract, relPath)) continue;
      if (change === 'created') created.push(relPath);
      else if (!this.endedAsItBegan(relPath)) updated.push(relPath);
    }
    return { created, updated };
  }

  /** A page written back to the very bytes it had before the run is not an update. */
  private endedAsItBegan(relPath: string): boolean {
    const after = this.contentAfter.get(relPath);
    return after !== undefined && this.contentBefore.has(relPath) && this.contentBefore.get(relPath) === after;
  }

  /** Every workspace file this run changed: what a git auto-commit should hold. */
  filesChanged(): string[] {
    return [...new Set([...this.changed.keys(), ...this.alsoChanged])].sort();
  }

  /**
   * Commit exactly this run's files when `git.autoCommit` is on (never .wiki/, never push);
   * returns a one-line notice, or undefined when auto-commit is off or this is a dry run.
   */
  async autoCommit(message: string): Promise<string | undefined> {
    if (!this.ws.config.config.git.autoCommit || this.options.dryRun) return undefined;
    const result = await autoCommit(this.ws.root, { files: this.filesChanged(), message });
    return result.status === 'committed'
      ? `git: committed ${result.files.length} file(s) as ${result.commit.slice(0, 10)}`
      : `git: not committed — ${result.reason}`;
  }

  async finish(status: Exclude<RunStatus, 'running'>): Promise<void> {
    if (this.run) await finishRun(this.run, status);
    await this.sourceFacts.close();
    this.shared.versions.close(this.options.runId);
    if (this.ownsShared) await this.shared.close();
  }

  private async afterWrite(relPath: string, change: WriteChange): Promise<void> {
    if (!this.changed.has(relPath)) this.changed.set(relPath, change);
    const content = await this.fs.readText(this.abs(relPath));
    this.versions.saw(relPath, content);
    this.contentAfter.set(relPath, content);
    if (this.run) await recordAfter(this.run, relPath, content);
    await this.writeCheck.written(relPath, content);
    if (relPath.endsWith('.md') && relPath.startsWith('wiki/')) {
      this.pages.upsert(this.writeCheck.parsed(relPath, content));
    }
  }

  private async humanEditNote(relPath: string): Promise<string | undefined> {
    if (!relPath.startsWith('wiki/') || this.changed.has(relPath)) return undefined;
    const current = await this.readIfExists(relPath);
    if (current === undefined || !(await humanEditBase(this.ws.root, relPath, current))) return undefined;
    return 'A human edited this page since wiki last wrote it: a write that drops any line or field they added or changed is refused, so keep their content as it is and only add to it.';
  }

  async readIfExists(relPath: string): Promise<string | undefined> {
    const abs = this.abs(relPath);
    if (!(await this.fs.exists(abs))) return undefined;
    try {
      return await this.fs.readText(abs);
    } catch (error) {
      // Gone between the check and the read (deleted, or renamed away by someone else): absent.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
  }
}

/** Temp files that runs killed mid-write left under wiki/ and raw/; call holding the lock. */
export function sweepAbandonedTempFiles(root: string): Promise<string[]> {
  return removeAbandonedTempFiles(root, ['wiki', 'raw']);
}
