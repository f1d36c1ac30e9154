import type { LintAccount } from '../wiki/validate/finding.js';

/**
 * The words of the lint account, the same in `wiki lint`'s summary and `wiki status`:
 * "1 error, 2 warnings (and 26 kept after review); 5 questions for a model to answer".
 */
export function accountText(account: LintAccount): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (account.errors + account.warnings + account.questions + account.kept === 0) return 'No problems found.';
  const questions = account.questions > 0 ? `${plural(account.questions, 'question')} for a model to answer` : '';
  if (account.errors + account.warnings === 0) {
    const kept = account.kept > 0 ? ` (${account.kept} kept after review, with their reasons)` : '';
    return `No open problems${kept}${questions ? `; ${questions}` : ''}.`;
  }
  const kept = account.kept > 0 ? ` (and ${account.kept} kept after review)` : '';
  return `${plural(account.errors, 'error')}, ${plural(account.warnings, 'warning')}${kept}${questions ? `; ${questions}` : ''}`;
}

/** The line under the findings saying how questions get answered. */
export function questionsLine(count: number, rules: readonly string[]): string {
  return (
    `${count} ${count === 1 ? 'question' : 'questions'} (${rules.join(', ')}): sentences the checks noticed a mismatch in but cannot judge. ` +
    '`wiki lint` with a model, or `wiki lint --fix`, asks it whether their cited lines support them (yes: kept; no: a warning); `--rule RULE` lists them.'
  );
}
