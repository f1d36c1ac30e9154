import { LOG_HEADING, RUN_LINE } from '../log.js';
import { ledgerKey } from '../log-ledger.js';
import { splitFrontmatter } from '../page.js';
import { finding, type Finding } from './finding.js';
import { isRealDate } from './page-rules.js';

const ENTRY_FORMAT = '## [YYYY-MM-DD] op | title';

/**
 * log.md is a chronology of `## [YYYY-MM-DD] op | title` entries. Any other level-2 heading
 * — usually a model having rewritten the log — breaks the tools that read it back.
 */
export function logFormatFindings(logPath: string, logText: string | undefined, ledger?: ReadonlySet<string>): Finding[] {
  if (logText === undefined) {
    return [finding('log-format', logPath, 'the log file is missing', { fix: 'run `wiki lint --fix` to start a new log' })];
  }
  const { body, bodyLine } = splitFrontmatter(logText);
  const findings: Finding[] = [];
  const lines = body.split('\n');
  const seen = new Set<string>();
  lines.forEach((rawLine, i) => {
    const line = rawLine.replace(/\r$/, '');
    if (!/^##(?!#)/.test(line)) return;
    const match = LOG_HEADING.exec(line);
    const line1 = bodyLine + i;
    if (!match) {
      findings.push(
        finding('log-format', logPath, `log heading "${truncate(line)}" is not "${ENTRY_FORMAT}"`, {
          line: line1,
          fix: `write entries as "${ENTRY_FORMAT}" (the tool appends them itself)`,
        }),
      );
    } else if (!isRealDate(match[1] ?? '')) {
      findings.push(finding('log-format', logPath, `log entry date ${match[1] ?? ''} is not a calendar date`, { line: line1, fix: 'correct the date' }));
    } else if (ledger) {
      const runId = RUN_LINE.exec((lines[i + 1] ?? '').replace(/\r$/, ''))?.[1];
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
  });
  return findings;
}

function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
