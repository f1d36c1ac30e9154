import path from 'node:path';
import { isoDate } from '../util/dates.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { entryLead, formatEntry, headingRunId, headingTitle, LOG_HEADING } from './log-format.js';
import { recordLogEntry } from './log-ledger.js';

export { entryLead, headingRunId, LOG_HEADING, RUN_LINE } from './log-format.js';

/** One chronology entry: `## [YYYY-MM-DD] op | title`. */
export interface LogEntry {
  date: string;
  op: string;
  /** As the operation gave it, without the run the heading names. */
  title: string;
  line: number;
  runId?: string;
}

export function parseLogEntries(text: string): LogEntry[] {
  const entries: LogEntry[] = [];
  text.split('\n').forEach((line, i) => {
    const match = LOG_HEADING.exec(line.replace(/\r$/, ''));
    if (!match) return;
    const title = (match[3] ?? '').trim();
    const runId = headingRunId(title);
    entries.push({ date: match[1] ?? '', op: (match[2] ?? '').trim(), title: headingTitle(title), line: i + 1, ...(runId ? { runId } : {}) });
  });
  return entries;
}

/** The text of one entry (see log-format.ts for its merge-safe shape); `lines` are its details. */
export function formatLogEntry(op: string, title: string, lines: string[] = [], date = isoDate(), runId?: string): string {
  return formatEntry(date, op, title, lines, runId);
}

/**
 * Append an entry to the log; the log is only ever appended to, never rewritten. Through the
 * sandbox's confined I/O, as a run's own log entries are: a log that is a link (or a folder
 * on its way swapped for one) is refused with a SandboxError, never read or written through.
 */
export async function appendLog(
  root: string,
  logPath: string,
  op: string,
  title: string,
  lines: string[] = [],
  date = isoDate(),
  runId?: string,
): Promise<string> {
  const io = new ConfinedIo(root);
  const file = path.join(root, logPath);
  const existing = (await io.readIfExists(file))?.toString('utf8') ?? '';
  const lead = existing === '' ? '# Log\n\n' : entryLead(existing);
  const entry = formatLogEntry(op, title, lines, date, runId);
  await io.write(file, `${existing}${lead}${entry}`);
  if (runId) await recordLogEntry(root, runId, entry.split('\n')[0] ?? entry, existing);
  return entry;
}
