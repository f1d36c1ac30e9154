import { hashText } from '../../state/hash.js';

/** The version a run saw of a page that did not exist then. */
const ABSENT = 'absent';

/** Above this many characters a stale write's refusal names the page instead of quoting it. */
export const STALE_QUOTE_MAX_CHARS = 24_000;

/**
 * Which version of each page every concurrent run last saw, so no run's write silently
 * replaces another's (no lost update). A run has seen a page when it read it, wrote it, or
 * was refused with it quoted; a page another run changed before this run saw it counts as
 * seen in the version this run started from. A write over a version the run has not seen
 * is stale: refused, with the current page, so the model merges.
 */
export class PageVersions {
  private readonly seenByRun = new Map<string, Map<string, string>>();
  /** Which run (by label) last changed each page: named in a refusal. */
  private readonly lastWriter = new Map<string, string>();

  /** Start tracking a run; `label` names it in other runs' refusals (e.g. its source). */
  open(runId: string, label: string): RunVersions {
    const seen = new Map<string, string>();
    this.seenByRun.set(runId, seen);
    return new RunVersions(runId, label, seen, this);
  }

  close(runId: string): void {
    this.seenByRun.delete(runId);
  }

  /** `writer` is about to change `relPath` from `previous`: other runs that never saw it keep that version. */
  noteChange(writer: RunVersions, relPath: string, previous: string | undefined): void {
    const version = versionOf(previous);
    for (const [runId, seen] of this.seenByRun) {
      if (runId !== writer.runId && !seen.has(relPath)) seen.set(relPath, version);
    }
    this.lastWriter.set(relPath, writer.label);
  }

  writerOf(relPath: string): string | undefined {
    return this.lastWriter.get(relPath);
  }
}

/** One run's view: what it saw, and whether a write of it is stale. */
export class RunVersions {
  constructor(
    readonly runId: string,
    readonly label: string,
    private readonly seen: Map<string, string>,
    private readonly all: PageVersions,
  ) {}

  /** The run read or wrote `content` (as text or its UTF-8 bytes) at `relPath`. */
  saw(relPath: string, content: string | Uint8Array | undefined): void {
    this.seen.set(relPath, versionOf(content));
  }

  /** This run is about to change `relPath` (now `previous`): note it for the other runs. */
  changing(relPath: string, previous: string | undefined): void {
    this.all.noteChange(this, relPath, previous);
  }

  /**
   * The refusal for a write over `current` when the run last saw another version, else
   * undefined. The refusal quotes the page (when short enough), which counts as seeing it.
   */
  staleWrite(relPath: string, current: string | undefined): string | undefined {
    const expected = this.seen.get(relPath);
    if (expected === undefined || expected === versionOf(current)) return undefined;
    const writer = this.all.writerOf(relPath);
    const by = writer && writer !== this.label ? ` by the run ingesting ${writer}` : '';
    if (current === undefined) {
      this.saw(relPath, current);
      return `${relPath} was deleted${by} since you last saw it; write it again only if it is still needed`;
    }
    const head = `${relPath} was changed${by} since you last saw it, so your write would drop that change. Merge what you meant to add into the current page below (keep its content) and send the whole page again, or your edits made against it`;
    if (current.length > STALE_QUOTE_MAX_CHARS) {
      return `${head}; it is ${current.length} characters long, so read it first with read_file(path="${relPath}")`;
    }
    this.saw(relPath, current);
    return `${head}. The current page:\n<current-page path="${relPath}">\n${current}${current.endsWith('\n') ? '' : '\n'}</current-page>`;
  }
}

function versionOf(content: string | Uint8Array | undefined): string {
  return content === undefined ? ABSENT : hashText(content);
}
