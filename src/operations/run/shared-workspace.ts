import type { SearchIndex } from '../../search/index.js';
import { openSearchIndex } from '../../store/open-index.js';
import { Mutex } from '../../util/mutex.js';
import { PageIndex } from '../../wiki/page-index.js';
import { loadPages } from '../../wiki/pages.js';
import { PageVersions } from './page-versions.js';
import type { WorkspaceHandle } from './workspace-handle.js';

/**
 * What the runs of one command share when they work at the same time (`wiki ingest
 * --jobs N`): one page index and one search index (each run's writes are seen by the
 * others' validation and searches at once), the page versions every run last saw, and
 * one mutex through which every change to the workspace goes: model writes and the
 * after-steps (index.md, log.md, manifest, history), one at a time.
 */
export class SharedWorkspace {
  readonly versions = new PageVersions();
  readonly changes = new Mutex();

  private constructor(
    readonly pages: PageIndex,
    readonly search: SearchIndex,
  ) {}

  static async open(ws: WorkspaceHandle, options: { env: NodeJS.ProcessEnv; persist: boolean }): Promise<SharedWorkspace> {
    const pages = PageIndex.fromPages(await loadPages(ws.root, ws.schema.contract), ws.schema.contract);
    const search = await openSearchIndex(ws.root, ws.schema, ws.config.config, options);
    return new SharedWorkspace(pages, search);
  }

  /** Flush the search index; call once every run is finished. */
  close(): Promise<void> {
    return this.search.close();
  }
}
