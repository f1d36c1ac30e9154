import { appendFileSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { stateDir } from '../wiki/workspace.js';
import { readStateJson, stateFileStamp, writeStateJson } from './json-file.js';
import { hashText } from './hash.js';
import { checkRelativePath } from './paths.js';
import { keepWrittenCopy, writtenCopy } from './written-copies.js';

/**
 * What the tool last wrote to each path (its sha256, the run, when), which is how a later
 * run tells a human edit from the tool's own work. `.wiki/written.json` holds the map as of
 * the last fold; `.wiki/written.log` holds one line per change since, with the text written
 * (see written-copies.ts). A write appends a line instead of rewriting a map that grows with
 * the wiki and creating a copy file; a finishing run folds the log into written.json and
 * the copies into their files. Readers replay the log over written.json; a line sets one path, so
 * replaying lines already folded changes nothing, and a fold cut short between its two
 * steps (written.json saved, log emptied) reads the same. A torn last line (a kill in the
 * middle of an append) is skipped, and the next append starts on a line of its own.
 */
export const WRITTEN_FILE = 'written.json';
export const WRITTEN_LOG = 'written.log';

export interface WrittenEntry {
  sha256: string;
  runId: string;
  writtenAt: string;
}

export const writtenEntrySchema = z.object({ sha256: z.string(), runId: z.string(), writtenAt: z.string() });
const writtenSchema = z.object({ version: z.literal(1), files: z.record(z.string(), writtenEntrySchema) });
const logLineSchema = z.object({ path: z.string(), entry: writtenEntrySchema.nullable(), text: z.string().optional() });

interface Ledger {
  /** written.json as last read, with the stat it had. */
  snapshot: Record<string, WrittenEntry>;
  snapshotStamp: string | undefined | null;
  /** The log's stat when last replayed (or appended to by this process). */
  logStamp: string | undefined | null;
  /** The log ends in a newline (or is empty): the next line can be appended as it is. */
  logEndsClean: boolean;
  /** written.json with the log replayed over it. */
  files: Record<string, WrittenEntry>;
  /** Lines in the log (a fold is due when there are any). */
  logLines: number;
  /** The texts the log's lines carry, by sha256: written copies not yet in their files. */
  copies: Map<string, string>;
}

/**
 * By state folder: a run reads the ledger at every write, so it is read from disk again
 * only when a stat shows another process changed a file (the stamp includes the inode,
 * which an atomic rewrite replaces, and the size, which an append changes).
 */
const ledgers = new Map<string, Ledger>();
/** Changes to one workspace's ledger, one at a time (concurrent runs share it). */
const chains = new Map<string, Promise<unknown>>();

function snapshotPath(root: string): string {
  return path.join(stateDir(root), WRITTEN_FILE);
}

function logPath(root: string): string {
  return path.join(stateDir(root), WRITTEN_LOG);
}

// Synchronous stats (stateFileStamp) and appends: each is a few microseconds, where a trip
// through the thread pool costs a write a good part of a millisecond on a busy machine.
async function load(root: string): Promise<Ledger> {
  const key = stateDir(root);
  const cached = ledgers.get(key);
  const snapshotStamp = stateFileStamp(snapshotPath(root));
  const logStamp = stateFileStamp(logPath(root));
  const same = (a: string | undefined | null, b: string | undefined | null): boolean => a === b && a !== null;
  if (cached && same(cached.snapshotStamp, snapshotStamp) && same(cached.logStamp, logStamp)) return cached;
  const snapshot =
    cached && same(cached.snapshotStamp, snapshotStamp) && snapshotStamp !== undefined
      ? cached.snapshot
      : ((await readStateJson(snapshotPath(root), writtenSchema, `.wiki/${WRITTEN_FILE}`, 'delete it (pages then count as not yet written by the tool)'))?.files ?? {});
  const files = { ...snapshot };
  let logLines = 0;
  let logEndsClean = true;
  const copies = new Map<string, string>();
  if (logStamp !== undefined) {
    const text = readFileSync(logPath(root), 'utf8');
    logEndsClean = text === '' || text.endsWith('\n');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const parsed = parseLogLine(line);
      // Only the last line can be torn (a kill mid-append); any other bad line is a hand edit.
      if (!parsed) {
        if (line === text.slice(text.lastIndexOf('\n') + 1)) continue;
        throw new ConfigError(`.wiki/${WRITTEN_LOG}: a line is not what wiki writes`, 'delete it (pages written since the last run finished then count as edited by hand)');
      }
      logLines++;
      const clean = checkRelativePath(parsed.path);
      if (parsed.entry) files[clean] = parsed.entry;
      else delete files[clean];
      if (parsed.entry && parsed.text !== undefined && hashText(parsed.text) === parsed.entry.sha256) copies.set(parsed.entry.sha256, parsed.text);
    }
  }
  const ledger: Ledger = { snapshot, snapshotStamp, logStamp, logEndsClean, files, logLines, copies };
  ledgers.set(key, ledger);
  return ledger;
}

function parseLogLine(line: string): z.infer<typeof logLineSchema> | undefined {
  try {
    const result = logLineSchema.safeParse(JSON.parse(line));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

function exclusive<T>(root: string, work: () => Promise<T>): Promise<T> {
  const key = stateDir(root);
  const next = (chains.get(key) ?? Promise.resolve()).then(work, work);
  chains.set(key, next.catch(() => undefined));
  return next;
}

/** What written.json and its log say the tool last wrote, by workspace-relative path. */
export async function writtenEntries(root: string): Promise<Readonly<Record<string, WrittenEntry>>> {
  return (await load(root)).files;
}

/** What the tool last wrote to `relPath`, if it ever did. */
export async function lastWritten(root: string, relPath: string): Promise<WrittenEntry | undefined> {
  return (await load(root)).files[checkRelativePath(relPath)];
}

/** The text the tool wrote with this hash, or undefined when no copy was kept. */
export async function writtenText(root: string, sha256: string): Promise<string | undefined> {
  return (await load(root)).copies.get(sha256) ?? (await writtenCopy(root, sha256));
}

/**
 * Set (or with null, remove) what the tool last wrote to `relPath`: one line appended to the
 * log, carrying `text` (what was written, whose sha256 the entry holds) as its copy.
 */
export function setWrittenEntry(root: string, relPath: string, entry: WrittenEntry | null, text?: string): Promise<void> {
  const clean = checkRelativePath(relPath);
  return exclusive(root, async () => {
    const ledger = await load(root);
    const file = logPath(root);
    const copy = entry && text !== undefined ? { text } : {};
    const line = `${ledger.logEndsClean ? '' : '\n'}${JSON.stringify({ path: clean, entry, ...copy })}\n`;
    try {
      appendFileSync(file, line);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(file, line);
    }
    if (entry) ledger.files[clean] = entry;
    else delete ledger.files[clean];
    if (entry && text !== undefined) ledger.copies.set(entry.sha256, text);
    ledger.logEndsClean = true;
    ledger.logLines++;
    ledger.logStamp = stateFileStamp(file);
  });
}

/**
 * Fold the log (when it holds any line): the copies it carries into their files, the map
 * into written.json (saved atomically), then the log emptied.
 */
export function foldWrittenLog(root: string): Promise<void> {
  return exclusive(root, async () => {
    const ledger = await load(root);
    if (ledger.logLines === 0 && ledger.logEndsClean) return;
    for (const text of ledger.copies.values()) await keepWrittenCopy(root, text);
    const files = { ...ledger.files };
    await writeStateJson(snapshotPath(root), { version: 1, files });
    truncateSync(logPath(root));
    ledgers.set(stateDir(root), { snapshot: files, snapshotStamp: stateFileStamp(snapshotPath(root)), logStamp: stateFileStamp(logPath(root)), logEndsClean: true, files: { ...files }, logLines: 0, copies: new Map() });
  });
}
