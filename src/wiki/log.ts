import path from 'node:path';
import { isoDate } from '../util/dates.js';
import { ConfinedIo } from '../confine/confined-io.js';
import { recordLogEntry } from './log-ledger.js';

/** One chronology entry: `## [YYYY-MM-DD] op | title`. */
export interface LogEntry {
  date: string;
  op: string;
  title: string;
  line: number;
}

import { LOG_HEADING } from './log-format.js';

export { LOG_HEADING, RUN_LINE } from './log-format.js';

export function parseLogEntries(text: string): LogEntry[] {
  const entries: LogEntry[] = [];
  text.split('\n').forEach((line, i) => {
    const match = LOG_HEADING.exec(line);
    if (match) entries.push({ date: match[1] ?? '', op: (match[2] ?? '').trim(), title: (match[3] ?? '').trim(), line: i + 1 });
  });
  return entries;
}

/** The text of one entry; `lines` become a bullet list under the heading, after the run id. */
export function formatLogEntry(op: string, title: string, lines: string[] = [], date = isoDate(), runId?: string): string {
  const cleanTitle = title.replace(/\s+/g, ' ').trim();
  const body = [...(runId ? [`run: ${runId}`] : []), ...lines].map((line) => `- ${line.replace(/\n/g, ' ')}`).join('\n');
  return `## [${date}] ${op.trim()} | ${cleanTitle}\n${body ? `${body}\n` : ''}`;
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
  const lead = existing === '' ? '# Log\n\n' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  const entry = formatLogEntry(op, title, lines, date, runId);
  await io.write(file, `${existing}${lead}${entry}`);
  if (runId) await recordLogEntry(root, runId, entry.split('\n')[0] ?? entry, existing);
  return entry;
}
