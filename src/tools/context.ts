import type { SearchHits } from '../search/types.js';
import type { Contract } from '../wiki/contract.js';
import type { WorkspaceFs } from './workspace-fs.js';

/**
 * What the five tools need from the rest of the program, as ports, so the tools depend on
 * no particular validator, search engine or history implementation.
 */
export interface ToolContext {
  /** Workspace root (need not be a real path; the sandbox resolves it). */
  root: string;
  /** All file I/O: DiskFs normally, OverlayFs in a dry run. */
  fs: WorkspaceFs;
  contract: Contract;
  /** The user whose scratch folder (wiki/user/<name>/) the model may also write to. */
  user?: string | undefined;
  validator: WriteValidator;
  search: SearchPort;
  observer?: WriteObserver;
  /** Extra sandbox.deny patterns from wiki.config.json, on top of the built-in deny list. */
  deny?: readonly string[];
  /**
   * Who sees what (wiki/access.ts) for the model's reads: whether `path` (a page or a
   * folder; `text`, a page's content when it was just read) is hidden from this run's
   * model. A hidden path answers exactly as an absent one. Absent: nothing is hidden.
   */
  hides?: (path: string, text?: string) => boolean;
  /** Size caps on what the model may write (bytes); absent: DEFAULT_WRITE_LIMITS. */
  writeLimits?: WriteLimits;
  /** Longest search_wiki query in characters (limits.searchQueryChars; default DEFAULT_SEARCH_QUERY_CHARS). */
  searchQueryChars?: number;
  /** Default read_file window in characters (default 20,000; never above 50,000). */
  readLimit?: number;
  /**
   * Turns a non-text source (PDF, HTML…) into text for read_file. Return `undefined` for
   * files it does not handle; they are then read as text. Called for files up to 64 MB.
   */
  textExtractor?: TextExtractor;
  /**
   * Which paths `textExtractor` handles, asked before the file is read, so plain text (up
   * to 64 MB) is never loaded whole just to be offered to the extractor. Absent: all.
   */
  extractable?: (path: string) => boolean;
  /**
   * The facts a raw source states on lines `first`–`last` (`.wiki/facts.db`), so a window
   * read from it can name the fact ids of its lines. Absent, or empty: no facts shown.
   */
  sourceFacts?: SourceFacts;
  /** Today's date as pages write it (YYYY-MM-DD), for `updated`; absent: the local date now. */
  today?: () => string;
}

export type SourceFacts = (source: string, first: number, last: number) => Promise<readonly FactLines[]>;

export interface FactLines {
  id: string;
  lineStart: number;
  lineEnd: number;
}

export type TextExtractor = (path: string, bytes: Uint8Array) => Promise<string | undefined>;

export interface ValidationVerdict {
  ok: boolean;
  /** Full human-readable reasons, including the closest existing keys for a bad link. */
  errors: string[];
  warnings: string[];
}

export interface WriteValidator {
  /**
   * Judge a page's whole content as if it were written at `path` (workspace-relative) over
   * `previous`, what is there now (undefined: a new page).
   */
  validate(path: string, content: string, previous?: string, alongside?: WriteAlongside): ValidationVerdict | Promise<ValidationVerdict>;
}

/**
 * Other pages of the same answer a write is judged together with, counted as existing:
 * `linkKeys` for its links only (keys later write_file calls of the turn are to write),
 * `pages` in full (a group of pages linking to each other, written all or none: links to
 * them resolve, and the key and title rules compare the page against them too).
 */
export interface WriteAlongside {
  linkKeys?: ReadonlySet<string>;
  pages?: ReadonlyArray<{ path: string; content: string }>;
}

export interface SearchPort {
  /** Ranked results, best first, and the quoted phrases no page holds. */
  search(query: string, limit: number): Promise<SearchHits>;
  /** Re-index one page at once after it was written. */
  upsert(path: string, content: string): Promise<void>;
}

export type WriteChange = 'created' | 'updated' | 'appended';

export interface WriteObserver {
  /** Before a file changes; `previous` is its current content (undefined: it does not exist). Throwing cancels the write. */
  beforeWrite?(path: string, previous: string | undefined): Promise<void> | void;
  /** After a file changed; `content` is what it now holds. */
  afterWrite?(path: string, change: WriteChange, content: string): Promise<void> | void;
  /**
   * A note shown to the model with read_file and write results for `path` — e.g. that a
   * human edited the page since the tool last wrote it, so their content must be kept.
   * `current` is the page's content when the tool has just read it (else the observer reads it).
   */
  noteFor?(path: string, current?: string): Promise<string | undefined> | string | undefined;
  /** read_file showed (a window of) `path`, whose whole content is `bytes`: the version the model has seen. */
  afterRead?(path: string, bytes: Uint8Array): void;
}

export interface WriteLimits {
  /** Largest whole page write_file accepts, in UTF-8 bytes. */
  pageWriteBytes: number;
  /** Largest text one append_to_file call adds, in UTF-8 bytes. */
  appendBytes: number;
}

export const DEFAULT_WRITE_LIMITS: WriteLimits = { pageWriteBytes: 1024 * 1024, appendBytes: 64 * 1024 };
