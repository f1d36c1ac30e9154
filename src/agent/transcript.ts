import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Any record with a `type`; agent events are one kind, operations may add their own. */
export type TranscriptRecord = { type: string } & Record<string, unknown>;

/**
 * A run's JSONL transcript: one record per line, each stamped with an ISO `time`.
 * `write` returns at once; lines are appended in call order, a tick's lines together,
 * through one open descriptor. `close` waits for every pending line and reports the first
 * write failure.
 */
export interface TranscriptWriter {
  readonly path: string;
  write(record: TranscriptRecord): void;
  close(): Promise<void>;
}

/** Where a run's transcript lives: `.wiki/runs/<runId>.jsonl` under the workspace root. */
export function transcriptPath(root: string, runId: string): string {
  return path.join(root, '.wiki', 'runs', `${runId}.jsonl`);
}

/** Default cap on one transcript line (limits.transcriptEventBytes). */
export const DEFAULT_TRANSCRIPT_EVENT_BYTES = 2 * 1024 * 1024;

/** Long strings are cut to no less than this when an event is shortened. */
const MIN_KEPT_CHARS = 64;

/**
 * One record as a JSON line of at most `maxBytes` UTF-8 bytes (plus the newline): when it
 * would be longer, its longest strings are cut, each ending in a marker that gives its
 * full length, and the line says `"truncated":true`. A huge write is recorded as a
 * bounded line, never copied whole into the transcript.
 */
export function transcriptLine(record: Record<string, unknown>, maxBytes: number): string {
  // Measured before serialising, so a 100 MB argument is never turned into a 100 MB line.
  const chars = stringChars(record);
  if (chars * 6 + 1024 <= maxBytes) return `${JSON.stringify(record)}\n`;
  if (chars <= maxBytes) {
    const line = JSON.stringify(record);
    if (Buffer.byteLength(line, 'utf8') <= maxBytes) return `${line}\n`;
  }
  // The line's budget shared among its long strings: a response of 60 calls of 1 MB each is
  // cut to one bounded line at the first try, never serialised at tens of megabytes first.
  let keep = Math.max(MIN_KEPT_CHARS, Math.floor(maxBytes / 4 / Math.max(1, longStrings(record, MIN_KEPT_CHARS))));
  for (;;) {
    const line = JSON.stringify({ ...(cutStrings(record, keep) as Record<string, unknown>), truncated: true });
    if (Buffer.byteLength(line, 'utf8') <= maxBytes || keep <= MIN_KEPT_CHARS) return `${line}\n`;
    keep = Math.max(MIN_KEPT_CHARS, Math.floor(keep / 2));
  }
}

/** How many strings in `value` are longer than `chars`. */
function longStrings(value: unknown, chars: number): number {
  if (typeof value === 'string') return value.length > chars ? 1 : 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + longStrings(item, chars), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((sum: number, item) => sum + longStrings(item, chars), 0);
  return 0;
}

function stringChars(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + stringChars(item), 0);
  if (value !== null && typeof value === 'object') {
    let sum = 0;
    for (const [key, item] of Object.entries(value)) sum += key.length + stringChars(item);
    return sum;
  }
  return 0;
}

function cutStrings(value: unknown, keep: number): unknown {
  if (typeof value === 'string') {
    return value.length > keep ? `${value.slice(0, keep)}…[truncated: ${value.length} chars in all]` : value;
  }
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, keep));
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return cutStrings((value as { toJSON: () => unknown }).toJSON(), keep);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item, keep)]));
  }
  return value;
}

export async function createTranscript(
  filePath: string,
  options: { maxEventBytes?: number } = {},
): Promise<TranscriptWriter> {
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_TRANSCRIPT_EVENT_BYTES;
  await mkdir(path.dirname(filePath), { recursive: true });
  const fd = openSync(filePath, 'a');
  let pending: Promise<void> = Promise.resolve();
  let failure: unknown;
  let closed = false;
  // Lines written in the same tick go out together: one system call for the events of a
  // turn instead of one for each. The append is a synchronous call (microseconds for a
  // turn's lines, where a trip through the thread pool costs far more on a busy machine).
  let queued: string[] = [];

  const flush = async (): Promise<void> => {
    const text = queued.join('');
    queued = [];
    if (failure !== undefined || text === '') return;
    try {
      appendAll(fd, Buffer.from(text, 'utf8'));
    } catch (error) {
      failure = error;
    }
  };

  return {
    path: filePath,
    write(record: TranscriptRecord): void {
      if (closed) throw new Error(`transcript ${filePath} is already closed`);
      queued.push(transcriptLine({ time: new Date().toISOString(), ...record }, maxEventBytes));
      if (queued.length === 1) pending = pending.then(flush);
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pending;
      closeSync(fd);
      if (failure !== undefined) throw failure;
    },
  };
}

function appendAll(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}
