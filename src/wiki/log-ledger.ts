import { appendFile, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { LOG_HEADING, RUN_LINE } from './log-format.js';
import { stateDir } from './workspace.js';

/**
 * `.wiki/log-ledger.jsonl`: one line per entry the tool appended to log.md (its run id and
 * heading), so lint can tell the tool's entries from anything else written into the log.
 */
const LEDGER_FILE = 'log-ledger.jsonl';

export function ledgerKey(runId: string, heading: string): string {
  return `${runId}\u0000${heading}`;
}

/**
 * Record an entry the tool appended. The first record in a workspace adopts the entries the
 * log already holds (`logBefore`), so a log from before the ledger is not reported as forged.
 */
export async function recordLogEntry(root: string, runId: string, heading: string, logBefore: string): Promise<void> {
  const file = path.join(stateDir(root), LEDGER_FILE);
  const adopted: Array<{ runId: string; heading: string }> = [];
  const ledgerExists = await stat(file).then(() => true, () => false);
  if (!ledgerExists) {
    const lines = logBefore.split('\n');
    lines.forEach((line, i) => {
      if (LOG_HEADING.test(line)) adopted.push({ runId: RUN_LINE.exec(lines[i + 1] ?? '')?.[1] ?? '', heading: line });
    });
  }
  await mkdir(stateDir(root), { recursive: true });
  await appendFile(file, [...adopted, { runId, heading }].map((entry) => `${JSON.stringify(entry)}\n`).join(''));
}

/** The recorded entries as `ledgerKey`s; undefined when no ledger exists yet (a workspace from before it). */
export async function loadLogLedger(root: string): Promise<Set<string> | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(stateDir(root), LEDGER_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const keys = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const { runId, heading } = JSON.parse(line) as { runId?: unknown; heading?: unknown };
      if (typeof runId === 'string' && typeof heading === 'string') keys.add(ledgerKey(runId, heading));
    } catch {
      // a torn last line from a killed process: that entry is simply not recorded
    }
  }
  return keys;
}

/**
 * The ledger with the entries of the log as committed (`committedLogs`: log.md at HEAD, and
 * at MERGE_HEAD during a merge) added. A teammate's `query --save`, `lint --fix` or `undo`
 * entry arrives with a pull and is in no local ledger; once in the team's committed history
 * it is the team's record, not a forgery, and removing it would delete real history. An
 * entry not yet committed must still be one this clone's runs wrote.
 */
export function withCommittedEntries(ledger: Set<string> | undefined, committedLogs: readonly string[]): Set<string> | undefined {
  if (!ledger) return ledger;
  for (const text of committedLogs) {
    const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
    lines.forEach((line, i) => {
      const runId = LOG_HEADING.test(line) ? RUN_LINE.exec(lines[i + 1] ?? '')?.[1] : undefined;
      if (runId !== undefined) ledger.add(ledgerKey(runId, line));
    });
  }
  return ledger;
}

/**
 * The ledger with the entries of `runIds` added: runs a teammate's clone made, named in the
 * committed ingest record, whose log entries arrived with a `git merge` and so are in no
 * local ledger. Undefined stays undefined (no ledger: nothing is checked).
 */
export function withTeamRuns(ledger: Set<string> | undefined, logText: string | undefined, runIds: ReadonlySet<string>): Set<string> | undefined {
  if (!ledger || logText === undefined || runIds.size === 0) return ledger;
  const lines = logText.split('\n').map((line) => line.replace(/\r$/, ''));
  lines.forEach((line, i) => {
    if (!LOG_HEADING.test(line)) return;
    const runId = RUN_LINE.exec(lines[i + 1] ?? '')?.[1];
    if (runId !== undefined && runIds.has(runId)) ledger.add(ledgerKey(runId, line));
  });
  return ledger;
}
