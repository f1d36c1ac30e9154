import type { RemoveReport } from '../operations/sources/remove-source.js';
import type { Colors } from '../util/colors.js';

/** `wiki rm`'s report: what went, what was kept and why, which sentences lost their support. */
export function renderRemove(report: RemoveReport, c: Colors): string {
  const planned = report.dryRun || report.proposal !== undefined;
  const would = planned ? 'would be ' : '';
  const lines = [`${c.bold(report.proposal !== undefined ? 'Proposed removal' : report.dryRun ? 'Plan' : 'Removed')}: ${report.sources.join(', ')}`];
  for (const page of report.removed) lines.push(`  ${c.red('-')} ${page} ${would}removed (it drew only on the removed sources)`);
  for (const page of report.keptForHumanLines) lines.push(`  ${c.yellow('!')} ${page} ${would}kept and marked archived_since: a person wrote lines in it; edit or delete it`);
  for (const trimmed of report.trimmed) {
    lines.push(`  ${c.dim('~')} ${trimmed.page} ${would}updated: the removed sources leave its sources and citations`);
    for (const sentence of trimmed.unsupported) {
      lines.push(`      line ${sentence.line}: "${sentence.sentence}" ${report.prune ? `${would}removed` : 'cited only removed sources: now without support'}`);
    }
  }
  if (report.unlinked.length) lines.push(`  links to removed pages ${would}made plain text in: ${report.unlinked.join(', ')}`);
  const unsupported = report.trimmed.reduce((n, t) => n + t.unsupported.length, 0);
  if (unsupported && !report.prune) lines.push(c.dim(`${unsupported} sentence(s) cited only removed sources: rewrite them from other sources, or run again with --prune to remove them`));
  if (report.proposal === undefined) lines.push(c.dim(report.dryRun ? 'dry run: nothing was changed' : `run ${report.runId}; \`wiki undo\` puts it all back`));
  return lines.join('\n');
}
