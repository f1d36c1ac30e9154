import { headingRunId, LOG_HEADING, RUN_LINE } from '../log-format.js';
import { ledgerKey } from '../log-ledger.js';
import { splitFrontmatter } from '../page.js';
import { finding, type Finding } from './finding.js';
import { isRealDate } from './page-rules.js';

const ENTRY_FORMAT = '## [YYYY-MM-DD] op | title';
const RESTORE = 'restore the entry as the tool wrote it (`git log -p wiki/log.md` shows it); wiki appends one entry per run itself';

/**
 * log.md is a chronology of `## [YYYY-MM-DD] op | title` entries. Any other level-2 heading
 * — usually a model having rewritten the log — breaks the tools that read it back. An entry
 * a merge glued to another or kept twice (log-format.ts says why the shape prevents it under
 * git's union merge; an older clone's entries can still meet it) is reported as `log-entry`.
 */
export function logFormatFindings(logPath: string, logText: string | undefined, ledger?: ReadonlySet<string>): Finding[] {
  if (logText === undefined) {
    return [finding('log-format', logPath, 'the log file is missing', { fix: 'run `wiki lint --fix` to start a new log' })];
  }
  const { body, bodyLine } = splitFrontmatter(logText);
  const findings: Finding[] = [];
  const lines = body.split('\n').map((line) => line.replace(/\r$/, ''));
  const seen = new Set<string>();
  const runsSeen = new Set<string>();
  let previousLegacy = false;
  lines.forEach((line, i) => {
    const line1 = bodyLine + i;
    // Under an older entry, a second run line is that entry's finding (entryShapeProblem).
    if (RUN_LINE.test(line) && !previousLegacy && !LOG_HEADING.test(lines[i - 1] ?? '')) {
      findings.push(
        finding('log-entry', logPath, `log line "${truncate(line)}" stands under no heading of its own: a merge glued two entries together`, { line: line1, fix: RESTORE }),
      );
    }
    if (!/^##(?!#)/.test(line)) return;
    const match = LOG_HEADING.exec(line);
    if (!match) {
      findings.push(
        finding('log-format', logPath, `log heading "${truncate(line)}" is not "${ENTRY_FORMAT}"`, {
          line: line1,
          fix: `write entries as "${ENTRY_FORMAT}" (the tool appends them itself)`,
        }),
      );
      return;
    }
    if (!isRealDate(match[1] ?? '')) {
      findings.push(finding('log-format', logPath, `log entry date ${match[1] ?? ''} is not a calendar date`, { line: line1, fix: 'correct the date' }));
      return;
    }
    const named = headingRunId((match[3] ?? '').trim());
    const runId = RUN_LINE.exec(lines[i + 1] ?? '')?.[1];
    const broken = entryShapeProblem(lines, i, named, runId, previousLegacy);
    if (broken) findings.push(finding('log-entry', logPath, `log entry "${truncate(line)}" ${broken}`, { line: line1, fix: RESTORE }));
    else if (runId !== undefined && runsSeen.has(runId)) {
      findings.push(finding('log-entry', logPath, `log entry "${truncate(line)}" is run ${runId}'s entry a second time`, { line: line1, fix: 'remove the second copy' }));
    } else if (ledger) {
      const key = ledgerKey(runId ?? '', line);
      if (!ledger.has(key) || seen.has(key)) {
        const why = seen.has(key) ? 'repeats an earlier entry' : runId === undefined ? 'has no run id the tool recorded' : `matches no run the tool recorded (run ${runId})`;
        findings.push(
          finding('log-entry', logPath, `log entry "${truncate(line)}" ${why}: it was not written by wiki`, {
            line: line1,
            fix: 'remove it; wiki appends one entry per run itself',
          }),
        );
      }
      seen.add(key);
    }
    if (runId !== undefined) runsSeen.add(runId);
    previousLegacy = named === undefined;
  });
  return findings;
}

/**
 * Why the entry at `index` is not whole, or undefined. A merge-safe entry (its heading names
 * its run) is exactly its heading and its `- run:` line of the same run. An older entry
 * (heading, `- run:`, a bullet per detail, a blank line after) was glued when it follows the
 * previous older entry with no blank line, and two entries collapsed into one when it holds
 * two `- run:` lines.
 */
function entryShapeProblem(lines: readonly string[], index: number, named: string | undefined, runId: string | undefined, previousLegacy: boolean): string | undefined {
  if (named !== undefined) {
    if (runId !== named) return `names run ${named} but is not followed by its "- run: ${named}" line: a merge glued entries together or lost a line`;
    const after = lines[index + 2];
    if (after !== undefined && after.startsWith('- ')) return `is followed by "${truncate(after, 40)}", which belongs to no entry: a merge glued entries together`;
    return undefined;
  }
  let runs = 0;
  for (let j = index + 1; j < lines.length && lines[j] !== '' && !LOG_HEADING.test(lines[j] ?? ''); j += 1) if (RUN_LINE.test(lines[j] ?? '')) runs += 1;
  if (runs > 1) return `holds ${runs} "- run:" lines: a merge kept the same heading of ${runs} entries once`;
  const before = lines[index - 1];
  if (previousLegacy && before !== undefined && before !== '' && !LOG_HEADING.test(before)) return 'follows the previous entry with no blank line: a merge glued the two together';
  return undefined;
}

function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
