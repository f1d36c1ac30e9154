import { closeSync, fdatasync, openSync, readFileSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { z } from 'zod';
import { writtenEntrySchema } from './written.js';

/**
 * A run's journal, `.wiki/history/<runId>/journal.jsonl`: one line per recorded change,
 * appended as the run goes. A `before` line names a file the run is about to change for the
 * first time, with its content then (inline when small); an `after` line says what the run
 * left there. Before the run's first change of a file its `before` line is flushed to disk
 * (one fdatasync, which also carries every earlier line), so a run killed at any moment —
 * or a machine that loses power — can still be undone; `after` lines are not waited for
 * (without one, undo cannot tell a later change apart, as for a run killed mid-write).
 * run.json, written when the run begins and when it finishes, is the journal replayed.
 */
export const JOURNAL_FILE = 'journal.jsonl';

/** Before-images up to this size live in the journal line; larger ones in their own file. */
export const INLINE_IMAGE_MAX_BYTES = 256 * 1024;

const runFileSchema = z.object({
  path: z.string(),
  existedBefore: z.boolean(),
  beforeSha256: z.string().optional(),
  afterSha256: z.string().nullable().optional(),
  writtenBefore: writtenEntrySchema.nullable(),
});
export type RunFile = z.infer<typeof runFileSchema>;

const lineSchema = z.union([
  z.object({ before: runFileSchema, text: z.string().optional(), base64: z.string().optional() }),
  z.object({ after: z.object({ path: z.string(), afterSha256: z.string().nullable() }) }),
]);
type JournalLine = z.infer<typeof lineSchema>;

const syncData = promisify(fdatasync);

/** The open journal of a run in progress (a plain descriptor: appends are small and never wait on the thread pool). */
export class RunJournal {
  private fd: number | undefined;

  constructor(private readonly file: string) {}

  /** Append the `before` line of `file` (with its image when given) and wait until it is on disk. */
  async before(file: RunFile, image: string | Uint8Array | undefined): Promise<void> {
    const line: JournalLine = { before: file, ...(typeof image === 'string' ? { text: image } : image ? { base64: Buffer.from(image).toString('base64') } : {}) };
    const fd = this.append(line);
    await syncData(fd);
  }

  after(path: string, afterSha256: string | null): void {
    this.append({ after: { path, afterSha256 } });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private append(line: JournalLine): number {
    this.fd ??= openSync(this.file, 'a');
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    return this.fd;
  }
}

/** What a journal holds: the files in first-change order, and the inline before-images by path. */
export interface JournalContent {
  files: RunFile[];
  images: Map<string, Buffer>;
}

/** Replay a journal; undefined when there is none. A torn last line (a kill mid-append) is skipped. */
export function readJournal(file: string): JournalContent | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseJournal(text);
}

/** A journal's text replayed (a torn last line skipped). */
export function parseJournal(text: string): JournalContent {
  // By path, in first-change order (a Map keeps insertion order): a big run's journal is read in one pass.
  const files = new Map<string, RunFile>();
  const images = new Map<string, Buffer>();
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const line = parseLine(raw);
    if (!line) continue;
    if ('before' in line) {
      if (files.has(line.before.path)) continue;
      files.set(line.before.path, { ...line.before });
      if (line.text !== undefined) images.set(line.before.path, Buffer.from(line.text, 'utf8'));
      else if (line.base64 !== undefined) images.set(line.before.path, Buffer.from(line.base64, 'base64'));
    } else {
      const entry = files.get(line.after.path);
      if (entry) entry.afterSha256 = line.after.afterSha256;
    }
  }
  return { files: [...files.values()], images };
}

function parseLine(raw: string): JournalLine | undefined {
  try {
    const result = lineSchema.safeParse(JSON.parse(raw));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
