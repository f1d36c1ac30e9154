import type { LintReport } from './lint.js';
import type { LintBatch } from './lint-batch.js';
import type { Answer, AskedQuestion } from './lint-questions.js';
import { findingLine, type RepairState } from './lint-repair.js';

/** The words of a lint review: what the model is handed first, and the report's note of what the run did. */

export interface QuestionOutcome {
  asked: number;
  yes: number;
  no: number;
  /** Open questions left for a later run. */
  remaining: number;
  answeredEarlier: number;
}

export function describeBatch(batch: LintBatch, keptNow: number, repairs: RepairState, fix: boolean, questions: QuestionOutcome): string {
  // A read-only review fixes nothing: it is shown the findings, it does not "handle" them (nor leave any for a later run).
  const parts = [fix ? `handed ${batch.findings.length} finding(s), errors first` : `shown ${batch.findings.length} finding(s), errors first`];
  const handedBack = repairs.rounds.reduce((sum, round) => sum + round.length, 0);
  if (handedBack > 0) parts.push(`handed back ${handedBack} new finding(s) its own changes left, in ${repairs.rounds.length} repair round(s)`);
  if (keptNow > 0) parts.push(`kept ${keptNow} sentence(s) with a reason (not sent again until the sentence, its line or what it cites changes)`);
  if (batch.keptEarlier > 0) parts.push(`${batch.keptEarlier} kept earlier, not sent`);
  if (fix) parts.push(batch.remaining > 0 ? `${batch.remaining} left for the next run` : 'none left');
  if (questions.asked > 0) {
    const unanswered = questions.asked - questions.yes - questions.no;
    parts.push(`asked ${questions.asked} question(s): ${questions.yes} yes (kept), ${questions.no} no (now warnings)${unanswered > 0 ? `, ${unanswered} unanswered` : ''}`);
  }
  if (questions.answeredEarlier > 0) parts.push(`${questions.answeredEarlier} question(s) answered earlier, not asked again`);
  if (questions.remaining > 0) parts.push(`${questions.remaining} question(s) wait for a later run`);
  return parts.join('; ');
}

/** What a dry run's answers would have been (nothing is remembered). */
export function countAnswers(asked: readonly AskedQuestion[], answers: readonly Answer[]): { yes: number; no: number } {
  const byNumber = new Map(answers.map((answer) => [answer.number, answer]));
  const given = asked.map((q) => byNumber.get(q.number)).filter((answer): answer is Answer => answer !== undefined);
  return { yes: given.filter((answer) => answer.supported).length, no: given.filter((answer) => !answer.supported).length };
}

function shownForContext(batch: LintBatch, total: number): string {
  const kept = batch.keptEarlier ? ` (${batch.keptEarlier} kept earlier with a reason are not listed)` : '';
  if (batch.findings.length === 0) return `none${kept}`;
  return batch.findings.length + batch.keptEarlier >= total ? `all of them${kept}` : `the ${batch.findings.length} most important${kept}; the user's report lists every one`;
}

/** The findings the model is handed this run (at most lint.fixBatch, most important first), one line each. */
export function reviewRequest(report: LintReport, batch: LintBatch, repaired: number, fix: boolean): string {
  const found = `The deterministic checks found ${report.errors} error(s) and ${report.warnings} warning(s)${repaired ? ` after ${repaired} automatic repair(s)` : ''}. `;
  // A read-only review changes nothing: it is shown the findings as context, and "handles" none of them.
  const lines = [
    !fix
      ? `${found}Listed as context for your review: ${shownForContext(batch, report.errors + report.warnings)}:`
      : `${found}` +
      `This run handles ${batch.findings.length} of them, the most important first${batch.remaining ? ` (${batch.remaining} more wait for a later run)` : ''}` +
      // A played review read "handles 0 of them … (none)" beside 24 warnings as a fault: they were kept earlier.
      `${batch.keptEarlier ? `; ${batch.keptEarlier} ${batch.keptEarlier === 1 ? 'was' : 'were'} kept earlier with a reason and ${batch.keptEarlier === 1 ? 'is' : 'are'} not sent again` : ''}:`,
    '',
  ];
  for (const f of batch.findings) lines.push(findingLine(f));
  if (batch.findings.length === 0) lines.push('(none)');
  lines.push(
    '',
    fix
      ? 'Review the wiki as "Workflow: lint" says and fix what you can with the tools. End with one FINDING line per problem you found and did not fix (a problem you fixed is no finding), ' +
          'and one `KEEP <path>:<line> :: <why>` line per flagged sentence you checked and left as it is because it is right ' +
          '(two flagged sentences on one line: quote a few words of each, `KEEP <path>:<line> "…" :: <why>`).' +
          // Said only when it applies: a played review read it as boilerplate in a batch without one.
          (batch.findings.some((f) => f.rule === 'stale-page') ? ' For a stale-page finding, read the lines the page cites in the changed source and update the page so it says what the source says now.' : '')
      : 'Review the wiki as "Workflow: lint" says. Do not change anything; end with one FINDING line per problem you found.',
  );
  return lines.join('\n');
}

