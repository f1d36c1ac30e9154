/**
 * The one stat-based change detector: a reader remembers a file's size and mtime and when it
 * read the file, and later trusts an unchanged stat instead of reading it again, unless the
 * mtime is so close to that read that a rewrite in the same clock tick (coarse filesystem
 * clocks, same-size edits) could hide behind it ("racy" mtime).
 */
export interface FileStat {
  mtimeMs: number;
  size: number;
}

export interface FileStamp extends FileStat {
  /** When the file's content was read (ms since epoch), taken before the read. */
  seenAt: number;
}

/** An mtime this close to when the content was read does not prove it unchanged. */
export const RACY_WINDOW_MS = 2000;

/** Whether `now` proves the file is as it was when `stamp` was taken, without reading it. */
export function unchangedSince(stamp: FileStamp | undefined, now: FileStat): boolean {
  if (stamp === undefined) return false;
  return stamp.mtimeMs === now.mtimeMs && stamp.size === now.size && now.mtimeMs < stamp.seenAt - RACY_WINDOW_MS;
}
