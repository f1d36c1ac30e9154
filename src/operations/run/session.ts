import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WorkspaceHandle } from './workspace-handle.js';
import { autoCommit } from '../../git/auto-commit.js';
import type { SearchIndex } from '../../search/index.js';
import { beginRun, finishRun, recordAfter, recordBefore, type Run, type RunStatus } from '../../state/history.js';
import { humanEditBase } from '../../state/human-edits.js';
import type { WriteChange } from '../../tools/context.js';
import { RunSourceFacts, schemaAsksForFactIds } from '../ingest/source-facts.js';
import type { Tool } from '../../agent/tool.js';
import { ConfinedIo } from '../../confine/confined-io.js';
import { DiskFs, OverlayFs, type WorkspaceFs } from '../../tools/workspace-fs.js';
import type { LaneWarning } from '../inspect/search.js';
import { searchAsModel } from './model-search.js';
import { judgeHits, judgedWindow } from '../../search/strength.js';
import { ModelWriteCheck } from './model-write-check.js';
import { refreshIndexFiles } from './index-refresh.js';
import { RunChanges } from './run-changes.js';
import type { RunVersions } from './page-versions.js';
import type { ProposalSink } from './proposal-sink.js';
import { sessionTools } from './session-tools.js';
import { SharedWorkspace } from './shared-workspace.js';
import { isSpecialPage } from '../../wiki/contract.js';
import { entryLead, formatLogEntry } from '../../wiki/log.js';
import { recordLogEntry } from '../../wiki/log-ledger.js';
import type { PageIndex } from '../../wiki/page-index.js';
import { parsePage, type Page } from '../../wiki/page.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { validateWrite } from '../../wiki/validate-write.js';

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
  /** `--review`: with `dryRun`, the overlay's changes are kept here as a proposal when the run finishes. */
  review?: ProposalSink | undefined;
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
  private readonly changes = new RunChanges();
  /** Files changed in this run, workspace-relative, in first-change order. */
  readonly changed = this.changes.changed;
  /** Other files the run changed outside the tools (log, stale marks, copied sources), for git. */
  readonly alsoChanged = this.changes.alsoChanged;
  readonly writeCheck: ModelWriteCheck;
  private readonly sourceFacts: RunSourceFacts;
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
      deny: ws.config.config.sandbox.deny,
    });
    this.sourceFacts = new RunSourceFacts(ws.root);
    this.overlay = options.dryRun ? new OverlayFs(ws.root, new DiskFs(ws.root)) : undefined;
    this.fs = this.overlay ?? new DiskFs(ws.root);
    this.tools = sessionTools({
      ws,
      pages,
      fs: this.fs,
      user: this.user,
      readOnly: options.readOnly,
      changes: shared.changes,
      validate: async (p, content, previous, alongside) => {
        const stale = this.versions.staleWrite(p, previous);
        return stale ? { ok: false, errors: [stale], warnings: [] } : this.writeCheck.validate(p, content, previous, alongside);
      },
      // The model is shown what the wiki holds on the query as `wiki search` shows it (see judgeHits).
      search: async (query, limit) => {
        const response = await searchAsModel(this.search, this.pages, this.user, this.laneWarnings, query, judgedWindow(limit));
        return { results: judgeHits(response.results, limit), phrasesNotFound: response.phrasesNotFound };
      },
      upsert: async (p, content) => {
        if (!options.dryRun) await this.search.upsertPage(p, content);
      },
      observer: {
        beforeWrite: async (p, previous) => this.beforeWrite(p, previous),
        afterWrite: async (p, change, content) => this.afterWrite(p, change, content),
        noteFor: async (p, current) => this.humanEditNote(p, current),
        afterRead: (p, text) => this.versions.saw(p, text),
      },
      sourceFacts: schemaAsksForFactIds(ws.schema.text) ? this.sourceFacts.lookup : undefined,
    });
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
    await this.beforeWrite(relPath, previous);
    await this.fs.writeText(abs, content);
    const change: WriteChange = previous === undefined ? 'created' : 'updated';
    await this.afterWrite(relPath, change, content);
    if (relPath.endsWith('.md') && !isSpecialPage(this.ws.schema.contract, relPath) && !this.options.dryRun) {
      await this.search.upsertPage(relPath, content);
    }
    return change;
  }

  /** Regenerate index.md's catalog (and hub spokes) from the pages as they now stand. */
  refreshIndex(): Promise<string[]> {
    return refreshIndexFiles({ contract: this.ws.schema.contract, hubThreshold: this.ws.config.config.index.hubThreshold, pages: this.pages, ...this.recordedIo });
  }

  /** The run's recorded file I/O, bound (for helpers that take it as a port). */
  private readonly recordedIo = {
    readIfExists: (relPath: string) => this.readIfExists(relPath),
    writeFile: (relPath: string, content: string) => this.writeFile(relPath, content),
    deleteFile: (relPath: string) => this.deleteFile(relPath),
  };

  /** Delete a generated file (a hub spoke no longer needed), recorded for undo; not in a dry run. */
  async deleteFile(relPath: string): Promise<boolean> {
    if (this.options.dryRun) return false;
    const previous = await this.readIfExists(relPath);
    if (previous === undefined) return false;
    this.versions.changing(relPath, previous);
    if (this.run) await recordBefore(this.run, relPath, previous);
    // Confined like every other write: a folder swapped for a link since the read above is refused, never followed.
    await new ConfinedIo(this.ws.root).remove(this.abs(relPath));
    if (this.run) await recordAfter(this.run, relPath, undefined);
    this.pages.remove(relPath);
    await this.search.removePage(relPath); // a shared index (the database) is never told by the page's absence
    this.alsoChanged.add(relPath);
    return true;
  }

  /** Append one `## [date] op | title` entry to log.md (the log is only ever appended to). */
  async appendLog(op: string, title: string, lines: string[]): Promise<string> {
    const logPath = this.ws.schema.contract.log;
    const entry = formatLogEntry(op, title, lines, undefined, this.options.runId);
    const existing = (await this.readIfExists(logPath)) ?? '# Log\n\n';
    const lead = entryLead(existing);
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
        deny: this.ws.config.config.sandbox.deny,
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
    return this.changes.pageChanges(this.ws.schema.contract);
  }

  /** Every workspace file this run changed: what a git auto-commit should hold. */
  filesChanged(): string[] {
    return this.changes.filesChanged();
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
    if (this.options.review && this.overlay) {
      const { op, title, runId } = this.options;
      await this.options.review.keep({ op, title, runId, user: this.user, changes: this.overlay.changes(), written: this.pageChanges() });
    }
    await this.sourceFacts.close();
    this.shared.versions.close(this.options.runId);
    if (this.ownsShared) await this.shared.close();
  }

  private async beforeWrite(relPath: string, previous: string | undefined): Promise<void> {
    this.versions.changing(relPath, previous);
    this.changes.changing(relPath, previous);
    if (this.run) await recordBefore(this.run, relPath, previous);
  }

  /** `content`: what the file holds now (the write's own text: it is not read back). */
  private async afterWrite(relPath: string, change: WriteChange, content: string): Promise<void> {
    this.changes.changedTo(relPath, change, content);
    this.versions.saw(relPath, content);
    if (this.run) await recordAfter(this.run, relPath, content);
    await this.writeCheck.written(relPath, content);
    if (relPath.endsWith('.md') && relPath.startsWith('wiki/')) {
      this.pages.upsert(this.writeCheck.parsed(relPath, content));
    }
  }

  private async humanEditNote(relPath: string, current: string | undefined): Promise<string | undefined> {
    if (!relPath.startsWith('wiki/') || this.changed.has(relPath)) return undefined;
    const text = current ?? (await this.readIfExists(relPath));
    if (text === undefined || !(await humanEditBase(this.ws.root, relPath, text))) return undefined;
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
