import type { TranslateReport } from '../operations/translate/translate.js';
import type { Colors } from './output.js';
import { renderOutcomeLines, type Pricing } from './render-run.js';

/** `wiki translate`: how many pages were written anew, then what stayed untranslated and why — never left unsaid. */
export function renderTranslate(report: TranslateReport, c: Colors, pricing?: Pricing): string {
  const lines = [`translate to ${report.language} (${report.to}): ${report.rewritten.length} of ${report.pages.length} page(s) written anew`];
  if (report.alreadyInLanguage.length > 0) lines.push(`  ${report.alreadyInLanguage.length} page(s) already in ${report.language} left as they are`);
  lines.push(...renderOutcomeLines(report, c, pricing, true));
  const left = report.pages.filter((page) => !report.rewritten.includes(page));
  if (left.length > 0) {
    lines.push(`  ${c.yellow(`${left.length} page(s) not written anew`)} (run again to continue):`);
    for (const page of left.slice(0, 10)) lines.push(`    ${page}`);
    if (left.length > 10) lines.push(`    … and ${left.length - 10} more (see --json)`);
  }
  if (report.keptVerbatim.length > 0) {
    lines.push('  Kept word for word, not translated (a person wrote them):');
    for (const kept of report.keptVerbatim) {
      const what = [
        ...(kept.humanLines.length > 0 ? [`${kept.humanLines.length} line(s) a person wrote`] : []),
        ...(kept.ownerFields.length > 0 ? [`owner field(s) ${kept.ownerFields.join(', ')}`] : []),
      ];
      lines.push(`    ${kept.path}: ${what.join('; ')}`);
    }
  }
  for (const lost of report.lost) {
    const what = [...lost.links.map((key) => `[[${key}]]`), ...lost.citations];
    lines.push(`  ${c.yellow('lost in the rewrite')} ${lost.path}: ${what.join(', ')}`);
  }
  if (report.rewritten.length > 0) lines.push(`  ${c.dim('`wiki undo` restores the pages as they were.')}`);
  if (report.diff !== undefined && report.diff !== '') lines.push('', report.diff);
  return lines.join('\n');
}
