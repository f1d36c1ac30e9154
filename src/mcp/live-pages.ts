import { SandboxError } from '../errors.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { resolveInSandbox } from '../tools/sandbox.js';
import type { Contract, Schema } from '../wiki/contract.js';
import { parsePage } from '../wiki/page.js';
import { PageIndex } from '../wiki/page-index.js';
import { listPageFiles, type PageFile } from '../wiki/page-files.js';
import { unchangedSince, type FileStamp } from '../util/file-stamp.js';
import type { LiveSchema } from './live-schema.js';

const READ_BATCH = 256;

/**
 * The wiki's pages as they are on disk now. A long-lived server cannot build its page index
 * once: people and `wiki ingest` edit pages while it runs. Each `current()` lists wiki/ with
 * every page's stat and re-reads only those the stat does not prove unchanged
 * (`util/file-stamp.ts`), so answering stays cheap on a large wiki and is never stale.
 *
 * Only regular files under wiki/ are served: the listing skips hidden folders and symbolic
 * links, and every read goes through the sandbox and must land inside wiki/.
 */
export class LivePages {
  private index: PageIndex;
  private readonly seen = new Map<string, FileStamp>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Whether the files may have changed since the last rescan (always, unless watched). */
  private changed = true;
  private schemaNow: Schema;

  /**
   * `schema`: schema.md as it is now (live-schema.ts); a changed contract re-reads every
   * page under it (a page's type and visibility rank depend on it).
   * `watched`: a watcher calls `markChanged()` when a page changes (mcp/freshness.ts), so
   * a call rescans only after a change; otherwise every call rescans.
   */
  constructor(
    private readonly root: string,
    private readonly schema: LiveSchema | Schema,
    private readonly options: { watched?: boolean } = {},
  ) {
    this.schemaNow = this.readSchema();
    this.index = new PageIndex(this.schemaNow.contract);
  }

  /** The page index brought in line with the files and schema.md. Calls are serialised. */
  current(): Promise<PageIndex> {
    const next = this.queue.then(() => {
      const schema = this.readSchema();
      if (schema.contract !== this.schemaNow.contract) this.reset(schema);
      return this.changed || !this.options.watched ? this.rescan() : this.index;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The schema the index returned last was read under. */
  currentSchema(): Schema {
    return this.schemaNow;
  }

  get contract(): Contract {
    return this.schemaNow.contract;
  }

  /** Something under wiki/ changed: the next call rescans. */
  markChanged(): void {
    this.changed = true;
  }

  private readSchema(): Schema {
    return 'current' in this.schema ? this.schema.current() : this.schema;
  }

  private reset(schema: Schema): void {
    this.schemaNow = schema;
    this.index = new PageIndex(schema.contract);
    this.seen.clear();
    this.changed = true;
  }

  private async rescan(): Promise<PageIndex> {
    // Cleared before the listing: a change reported while it runs is rescanned next time.
    this.changed = false;
    const listed = listPageFiles(this.root);
    const present = new Set<string>();
    for (let i = 0; i < listed.length; i += READ_BATCH) {
      const batch = listed.slice(i, i + READ_BATCH);
      await Promise.all(batch.map(async (file) => {
        if (await this.sync(file)) present.add(file.path);
      }));
    }
    for (const pagePath of [...this.seen.keys()]) {
      if (!present.has(pagePath)) this.forget(pagePath);
    }
    return this.index;
  }

  /** Bring one listed page up to date; false when it is gone or may not be served. */
  private async sync(file: PageFile): Promise<boolean> {
    if (unchangedSince(this.seen.get(file.path), file)) return true;
    const seenAt = Date.now();
    const text = await readServedPage(this.root, file.path);
    if (text === undefined) return false;
    this.index.upsert(parsePage(file.path, text, this.schemaNow.contract));
    this.seen.set(file.path, { mtimeMs: file.mtimeMs, size: file.size, seenAt });
    return true;
  }

  private forget(pagePath: string): void {
    this.index.remove(pagePath);
    this.seen.delete(pagePath);
  }
}

/**
 * The text of a page, read only if the sandbox allows it and its real location is a
 * markdown file under wiki/; undefined when refused or vanished.
 */
export async function readServedPage(root: string, pagePath: string): Promise<string | undefined> {
  try {
    const resolved = await resolveInSandbox(root, pagePath, 'read');
    if (!resolved.real.startsWith('wiki/') || !resolved.real.endsWith('.md')) return undefined;
    // Read where the sandbox checked, never through a link swapped in since, and never a
    // hard link (it may carry a denied or outside file's content): see confined-io.ts.
    return Buffer.from(await confinedIoFor(root).readBytes(resolved.absolute)).toString('utf8');
  } catch (error) {
    if (error instanceof SandboxError) return undefined;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/** One confined reader per workspace root: each resolves its root once, not once per page read. */
const confinedIos = new Map<string, ConfinedIo>();
function confinedIoFor(root: string): ConfinedIo {
  let io = confinedIos.get(root);
  if (!io) confinedIos.set(root, (io = new ConfinedIo(root)));
  return io;
}
