import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SandboxError, UsageError } from '../errors.js';
import { writeFileAtomic } from '../util/fs.js';
import { stateDir } from '../wiki/workspace.js';
import { hashText } from './hash.js';
import { readStateJson, writeStateJson } from './json-file.js';
import { checkRelativePath } from './paths.js';
import { INLINE_IMAGE_MAX_BYTES, JOURNAL_FILE, parseJournal, readJournal, RunJournal, type RunFile } from './run-journal.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { pruneWrittenCopies } from './written-copies.js';
import { foldWrittenLog, setWrittenEntry, writtenEntries, writtenEntrySchema, type WrittenEntry } from './written.js';

/**
 * Run history: for every run that changes files, `.wiki/history/<runId>/` records the files
 * it touched and each one's content from before the run, so `wiki undo` can put them back.
 * The record is the run's journal (run-journal.ts), whose `before` line is on disk before
 * the caller overwrites the file, so a run killed at any moment can still be undone;
 * run.json is written when the run begins and when it finishes. What the tool last wrote to
 * each path (written.ts) is how a later run tells a human edit from its own work.
 */
export const HISTORY_DIR = 'history';

export type RunStatus = 'running' | 'completed' | 'stopped' | 'failed' | 'interrupted';

export type { RunFile };

export interface RunRecord {
  version: 1;
  runId: string;
  op: string;
  title: string;
  startedAt: string;
  finishedAt?: string;
  status: RunStatus;
  files: RunFile[];
}

const runRecordSchema = z.object({
  version: z.literal(1),
  runId: z.string(),
  op: z.string(),
  title: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  status: z.enum(['running', 'completed', 'stopped', 'failed', 'interrupted']),
  files: z.array(
    z.object({
      path: z.string(),
      existedBefore: z.boolean(),
      beforeSha256: z.string().optional(),
      afterSha256: z.string().nullable().optional(),
      writtenBefore: writtenEntrySchema.nullable(),
    }),
  ),
});

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A run in progress. Changes are recorded one at a time, in call order. */
export class Run {
  readonly root: string;
  readonly runId: string;
  readonly dir: string;
  readonly journal: RunJournal;
  private readonly record: RunRecord;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(root: string, record: RunRecord) {
    this.root = root;
    this.runId = record.runId;
    this.dir = runDir(root, record.runId);
    this.journal = new RunJournal(path.join(this.dir, JOURNAL_FILE));
    this.record = record;
  }

  get op(): string {
    return this.record.op;
  }

  get title(): string {
    return this.record.title;
  }

  /** A copy of the record as it stands. */
  snapshot(): RunRecord {
    return structuredClone(this.record);
  }

  /** Run `task` after every earlier one; a failure is reported to its caller only. */
  serialise<T>(task: (record: RunRecord) => Promise<T>): Promise<T> {
    const next = this.chain.then(() => task(this.record));
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/**
 * THE run id, for every run (its transcript, its history, its log entry): UTC date and
 * time plus a random suffix, e.g. 20260121-102233-3f9a2c; sortable and file-name-safe.
 */
export function newRunId(now: Date = new Date()): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${randomBytes(3).toString('hex')}`;
}

export function isValidRunId(runId: string): boolean {
  return RUN_ID.test(runId);
}

export function historyDir(root: string): string {
  return path.join(stateDir(root), HISTORY_DIR);
}

function runDir(root: string, runId: string): string {
  if (!isValidRunId(runId)) throw new UsageError(`not a run id: ${JSON.stringify(runId)}`, 'run ids look like 20260121-102233-3f9a2c (see `wiki undo --list`)');
  return path.join(historyDir(root), runId);
}

export async function beginRun(root: string, runId: string, op: string, title: string): Promise<Run> {
  const record: RunRecord = { version: 1, runId, op, title, startedAt: new Date().toISOString(), status: 'running', files: [] };
  const run = new Run(root, record);
  await mkdir(run.dir, { recursive: true });
  await saveRecord(run.dir, record);
  return run;
}

/**
 * Keep the content `relPath` had before this run first changed it; `undefined` means it did
 * not exist, so undo deletes it. Bytes are kept as they are (a file that is not UTF-8 is
 * restored byte for byte); text is stored as UTF-8, which is the same bytes for a UTF-8
 * file. Only the first call per path counts. Call it before writing: it returns once the
 * record is on disk.
 */
export function recordBefore(run: Run, relPath: string, previous: string | Uint8Array | undefined): Promise<void> {
  const clean = checkRelativePath(relPath);
  return run.serialise(async (record) => {
    if (record.files.some((file) => file.path === clean)) return;
    const file: RunFile = { path: clean, existedBefore: previous !== undefined, writtenBefore: (await writtenEntries(run.root))[clean] ?? null };
    let inline = previous;
    if (previous !== undefined) {
      file.beforeSha256 = hashText(previous);
      if (Buffer.byteLength(previous) > INLINE_IMAGE_MAX_BYTES) {
        await writeFileAtomic(beforeImagePath(run.dir, clean), previous);
        inline = undefined;
      }
    }
    await run.journal.before(file, inline);
    record.files.push(file);
  });
}

export interface RecordAfterOptions {
  /**
   * What written.json should say for this path afterwards. By default the new content
   * counts as the tool's own writing; undo passes the entry from before the undone run
   * instead (null removes it), so a restored human edit still reads as human.
   */
  written?: WrittenEntry | null;
}

/** Note what the run wrote to `relPath` (`undefined`: it deleted the file). Call after writing. */
export function recordAfter(run: Run, relPath: string, content: string | Uint8Array | undefined, options: RecordAfterOptions = {}): Promise<void> {
  const clean = checkRelativePath(relPath);
  return run.serialise(async (record) => {
    const file = record.files.find((entry) => entry.path === clean);
    if (!file) throw new Error(`recordAfter(${clean}) without recordBefore: the before-image would be lost`);
    const sha256 = content === undefined ? null : hashText(content);
    file.afterSha256 = sha256;
    run.journal.after(clean, sha256);
    const entry =
      options.written !== undefined
        ? options.written
        : sha256 === null
          ? null
          : { sha256, runId: run.runId, writtenAt: new Date().toISOString() };
    const text = content !== undefined && options.written === undefined ? (typeof content === 'string' ? content : Buffer.from(content).toString('utf8')) : undefined;
    await setWrittenEntry(run.root, clean, entry, text);
  });
}

/** End the run: run.json gets the whole record and the status, and what the tool wrote is folded into written.json. */
export function finishRun(run: Run, status: Exclude<RunStatus, 'running'>): Promise<RunRecord> {
  return run.serialise(async (record) => {
    record.status = status;
    record.finishedAt = new Date().toISOString();
    await saveRecord(run.dir, record);
    run.journal.close();
    await foldWrittenLog(run.root);
    return structuredClone(record);
  });
}

/** Every recorded run, oldest first. Unreadable run folders are skipped. */
export async function listRuns(root: string): Promise<RunRecord[]> {
  let names: string[];
  try {
    names = await readdir(historyDir(root));
  } catch {
    return [];
  }
  const records: RunRecord[] = [];
  for (const name of names.filter(isValidRunId)) {
    const record = await loadRun(root, name).catch(() => undefined);
    if (record) records.push(record);
  }
  return records.sort((a, b) => (a.startedAt === b.startedAt ? compare(a.runId, b.runId) : compare(a.startedAt, b.startedAt)));
}

export async function lastRun(root: string): Promise<RunRecord | undefined> {
  return (await listRuns(root)).at(-1);
}

/** A run's record: run.json, and for a run still going (or killed) its journal replayed. */
export async function loadRun(root: string, runId: string): Promise<RunRecord | undefined> {
  const dir = runDir(root, runId);
  const record = await readStateJson(path.join(dir, 'run.json'), runRecordSchema, `.wiki/${HISTORY_DIR}/${runId}/run.json`, 'delete that run folder');
  if (record?.status !== 'running') return record;
  const journal = readJournal(path.join(dir, JOURNAL_FILE));
  return journal ? { ...record, files: mergeFiles(record.files, journal.files) } : record;
}

/** run.json's files (a history written before journals) with the journal's after them; the journal's say last. */
function mergeFiles(recorded: readonly RunFile[], journaled: readonly RunFile[]): RunFile[] {
  const files = recorded.map((file) => ({ ...file }));
  for (const file of journaled) {
    const known = files.find((f) => f.path === file.path);
    if (!known) files.push(file);
    else if (file.afterSha256 !== undefined) known.afterSha256 = file.afterSha256;
  }
  return files;
}

/** Reads a run's before-images by path; undefined when the run kept none for it. */
export type BeforeImages = (relPath: string) => Promise<Buffer | undefined>;

/** A run's before-images, as the bytes stored (histories written as text read the same); the journal is read once for all of them. */
export function runBeforeImages(root: string, runId: string): BeforeImages {
  const dir = runDir(root, runId);
  // Read as the sandbox reads: a before-image (or a history folder) that is a link, or a hard
  // link, is refused, never followed — else a crafted history copies an outside file into wiki/.
  const io = new ConfinedIo(root);
  let inline: Map<string, Buffer> | undefined;
  return async (relPath) => {
    const clean = checkRelativePath(relPath);
    if (!inline) {
      const journal = await io.readIfExists(path.join(dir, JOURNAL_FILE));
      inline = journal ? parseJournal(journal.toString('utf8')).images : new Map<string, Buffer>();
    }
    const image = inline.get(clean);
    if (image) return image;
    try {
      return await io.readIfExists(beforeImagePath(dir, clean));
    } catch (error) {
      if (error instanceof SandboxError) throw error;
      return undefined;
    }
  };
}

/** The before-image a run kept for `relPath`, or undefined when there is none. */
export function readBeforeImage(root: string, runId: string, relPath: string): Promise<Buffer | undefined> {
  return runBeforeImages(root, runId)(relPath);
}

/** Delete all but the newest `keep` runs; returns the ids removed. */
export async function pruneRuns(root: string, keep: number): Promise<string[]> {
  const runs = await listRuns(root);
  const doomed = runs.slice(0, Math.max(0, runs.length - keep)).map((run) => run.runId);
  for (const runId of doomed) await rm(runDir(root, runId), { recursive: true, force: true });
  await pruneWrittenCopies(root, new Set(Object.values(await writtenEntries(root)).map((entry) => entry.sha256)));
  return doomed;
}

function beforeImagePath(dir: string, cleanRelPath: string): string {
  return path.join(dir, 'before', ...cleanRelPath.split('/'));
}

async function saveRecord(dir: string, record: RunRecord): Promise<void> {
  await writeStateJson(path.join(dir, 'run.json'), record);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
