import { randomBytes } from 'node:crypto';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Any record with a `type`; agent events are one kind, operations may add their own. */
export type TranscriptRecord = { type: string } & Record<string, unknown>;

/**
 * A run's JSONL transcript: one record per line, each stamped with an ISO `time`.
 * `write` never blocks the run; lines are appended in call order through one open
 * handle. `close` waits for every pending line and reports the first write failure.
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

/**
 * A sortable, file-name-safe run id: `2026-11-21T10-22-33-123Z-ingest-1a2b`.
 * The random tail keeps two runs started in the same millisecond apart.
 */
export function newRunId(op: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const safeOp = op.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'run';
  return `${stamp}-${safeOp}-${randomBytes(2).toString('hex')}`;
}

export async function createTranscript(filePath: string): Promise<TranscriptWriter> {
  await mkdir(path.dirname(filePath), { recursive: true });
  const handle: FileHandle = await open(filePath, 'a');
  let pending: Promise<void> = Promise.resolve();
  let failure: unknown;
  let closed = false;
  // Lines written while an append is under way go out together in the next one: one
  // system call for the events of a turn instead of one for each.
  let queued: string[] = [];

  const flush = async (): Promise<void> => {
    const text = queued.join('');
    queued = [];
    if (failure !== undefined || text === '') return;
    try {
      await handle.appendFile(text, 'utf8');
    } catch (error) {
      failure = error;
    }
  };

  return {
    path: filePath,
    write(record: TranscriptRecord): void {
      if (closed) throw new Error(`transcript ${filePath} is already closed`);
      queued.push(`${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
      if (queued.length === 1) pending = pending.then(flush);
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pending;
      await handle.close();
      if (failure !== undefined) throw failure;
    },
  };
}
