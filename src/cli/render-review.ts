import type { AcceptReport } from '../operations/review/accept.js';
import type { RejectReport } from '../operations/review/decide.js';
import type { ProposalSummary } from '../operations/review/propose.js';
import type { ProposalView } from '../operations/review/show.js';
import type { Colors } from './output.js';

/** One proposal on one line, then its pages: what `wiki review` lists. */
export function renderProposalList(proposals: ReadonlyArray<ProposalSummary & { title?: string }>, c: Colors): string {
  if (proposals.length === 0) return 'No proposal is waiting.';
  const lines = [`${proposals.length} ${proposals.length === 1 ? 'proposal waits' : 'proposals wait'}:`];
  for (const p of proposals) {
    lines.push('', `${c.bold(p.id)}  ${p.command}${p.title ? ` ${p.title}` : ''}  ${counts(p.pages)}  ${c.dim(p.created.replace('T', ' ').slice(0, 16))} UTC`);
    for (const page of p.pages) lines.push(`  ${changeMark(page.change, c)} ${page.path}`);
    for (const also of p.also ?? []) lines.push(`  ${c.red('!')} ${also}`);
  }
  lines.push('', c.dim('See one: wiki review show ID · land it: wiki review accept ID [PAGE…] · drop it: wiki review reject ID [PAGE…]'));
  return lines.join('\n');
}

function counts(pages: ProposalSummary['pages']): string {
  return pageCounts(pages) || 'no page';
}

function changeMark(change: string, c: Colors): string {
  return change === 'created' ? c.green('+') : change === 'removed' ? c.red('-') : c.yellow('~');
}

/** A unified diff coloured as git colours it: additions green, removals red, hunk heads cyan, file heads bold. */
export function colourDiff(diff: string, c: Colors): string {
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++ ') || line.startsWith('--- ')) return c.bold(line);
      if (line.startsWith('@@')) return c.cyan(line);
      if (line.startsWith('+')) return c.green(line);
      if (line.startsWith('-')) return c.red(line);
      return line;
    })
    .join('\n');
}

const STATE_NOTE: Record<ProposalView['pages'][number]['state'], string> = {
  'as-proposed': '',
  merges: 'changed on disk since the proposal; the proposal merges onto it cleanly',
  conflicts: 'changed on disk since the proposal, in the lines it changes: accepting this page is refused: reject it, and a later run works from the page as it is now',
};

/**
 * `wiki review show`: each page's diff. A removed page is shown as its first lines and a
 * count unless it was named (`full`): a removal of many pages should not bury the edits.
 */
export function renderProposal(view: ProposalView, c: Colors, options: { full: boolean } = { full: true }): string {
  const lines = [`${c.bold(`proposal ${view.id}`)} · ${view.command} · ${view.title} · ${view.created.replace('T', ' ').slice(0, 16)} UTC${view.user ? ` · ${view.user}'s` : ''}`];
  const summary = pageCounts(view.pages);
  if (summary) lines.push(c.dim(`${view.pages.length} page(s): ${summary}`));
  if (view.also?.length) lines.push('', c.bold(view.whole ? 'Also, when accepted (it lands or goes whole, not page by page):' : 'Also, when accepted:'), ...view.also.map((also) => `  ${c.red('!')} ${also}`));
  for (const page of view.pages) {
    lines.push('', `${changeMark(page.change, c)} ${c.bold(page.path)} (${page.change})${page.state === 'as-proposed' ? '' : ` — ${page.state === 'conflicts' ? c.red(STATE_NOTE[page.state]) : c.yellow(STATE_NOTE[page.state])}`}`);
    lines.push(colourDiff(page.change === 'removed' && !options.full ? shortRemoval(page.diff, view.id, page.path) : page.diff.trimEnd(), c));
    if (page.changedSince) lines.push('', c.dim('what changed on disk since the proposal was made:'), colourDiff(page.changedSince.trimEnd(), c));
  }
  lines.push('', c.dim(view.whole ? `Land it: wiki review accept ${view.id} · drop it: wiki review reject ${view.id}` : `Land it: wiki review accept ${view.id} [PAGE…] · drop it: wiki review reject ${view.id} [PAGE…]`));
  return lines.join('\n');
}

/** A removed page's diff cut to its head and first lines, with how to see the rest. */
function shortRemoval(diff: string, id: string, page: string): string {
  const all = diff.trimEnd().split('\n');
  const body = all.filter((line) => line.startsWith('-') && !line.startsWith('--- '));
  const shown = all.slice(0, 3 + 6);
  const rest = body.length - (shown.length - 3);
  return rest > 0 ? [...shown, ` … ${rest} more line(s) removed: wiki review show ${id} ${page}`].join('\n') : all.join('\n');
}

export function renderAccept(report: AcceptReport, c: Colors): string {
  if (report.refused.length > 0) {
    const lines = [c.red(`Not accepted: nothing was written. Proposal ${report.id} still waits whole.`)];
    for (const r of report.refused) {
      lines.push(`  ${r.path}: ${r.reason}`);
      for (const error of r.errors ?? []) lines.push(`    - ${error}`);
      if (r.diff) lines.push(c.dim('    what changed on disk since the proposal was made:'), colourDiff(r.diff.trimEnd(), c).replace(/^/gm, '    '));
    }
    if (report.refused.some((r) => r.diff)) lines.push(c.dim(`Keep the edit and drop the proposal (wiki review reject ${report.id}, then run the command again), or put the page back as it was and accept again.`));
    return lines.join('\n');
  }
  const lines = [`Accepted ${report.accepted.length} page(s) from proposal ${report.id} as run ${report.runId} (\`wiki undo ${report.runId}\` takes it back):`];
  for (const a of report.accepted) lines.push(`  ${changeMark(a.change, c)} ${a.path}${a.merged ? c.yellow(' (merged onto later edits)') : ''}`);
  if (report.recordedSource) lines.push(`  ${report.recordedSource} recorded as ingested`);
  for (const done of report.effects ?? []) lines.push(`  ${done}`);
  for (const f of report.findings) lines.push(`  ${c.yellow(f.severity)} ${f.path}: ${f.message}`);
  lines.push(report.remaining > 0 ? `${report.remaining} page(s) of it still wait.` : 'Nothing of it waits any more.');
  return lines.join('\n');
}

export function renderReject(report: RejectReport): string {
  return [`Rejected ${report.rejected.length} page(s) of proposal ${report.id}; wiki/ is unchanged.`, ...report.rejected.map((p) => `  ${p}`), report.remaining > 0 ? `${report.remaining} page(s) of it still wait.` : 'Nothing of it waits any more.'].join('\n');
}

/** `wiki status`'s line about proposals: empty when none waits. */
export function renderWaiting(proposals: readonly ProposalSummary[], c: Colors): string {
  if (proposals.length === 0) return '';
  const pages = proposals.reduce((n, p) => n + p.pages.length, 0);
  return `\n${c.yellow(`Review:   ${proposals.length} ${proposals.length === 1 ? 'proposal waits' : 'proposals wait'} (${pages} page(s))`)}: ${c.dim('wiki review')}`;
}

/** `3 updated, 7 removed`. */
export function pageCounts(pages: ReadonlyArray<{ change: string }>): string {
  return (['created', 'updated', 'removed'] as const)
    .map((kind) => [kind, pages.filter((p) => p.change === kind).length] as const)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
}
