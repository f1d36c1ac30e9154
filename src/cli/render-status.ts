import type { StatusReport } from '../operations/inspect/status.js';
import { renderMeanPerSource, renderUsageTotals } from '../progress/usage-totals.js';
import { renderSearchState } from './render-search.js';
import type { Colors } from './output.js';
import { accountText } from './render-account.js';

export function renderStatus(report: StatusReport, c: Colors): string {
  const lines: string[] = [c.bold(`wiki at ${report.root}`), ''];
  const types = Object.entries(report.pages.byType)
    .map(([type, count]) => `${type} ${count}`)
    .join(', ');
  lines.push(`Pages:    ${report.pages.total}${types ? ` (${types})` : ''}`);
  // Each source is listed once: by its state when it awaits an ingest, else as uncited.
  const awaiting = new Set([...report.raw.pending, ...report.raw.changed]);
  const uncited = report.raw.uncited.filter((file) => !awaiting.has(file));
  lines.push(`Sources:  ${report.raw.total} in raw/${uncited.length ? `, ${uncited.length} ingested but not cited by any page` : ''}`);
  for (const file of uncited.slice(0, 10)) lines.push(`            ${c.dim('·')} ${file}`);
  if (uncited.length > 10) lines.push(`            … and ${uncited.length - 10} more`);
  const states: Array<[string, string[]]> = [
    ['not ingested yet', report.raw.pending],
    ['changed since their last ingest', report.raw.changed],
    ['deleted since their last ingest', report.raw.deleted],
  ];
  // A changed source whose citations `wiki lint --fix` moved is still not ingested: said beside its name.
  const followed = new Set(report.raw.followed);
  const named = (file: string): string => (followed.has(file) ? `${file} (its citations follow it already; its new lines wait for \`wiki ingest\`)` : file);
  for (const [label, files] of states.filter(([, list]) => list.length > 0)) {
    lines.push(`          ${c.yellow(`${files.length} ${label}`)}: ${files.slice(0, 10).map(named).join(', ')}${files.length > 10 ? `, … and ${files.length - 10} more` : ''}`);
  }
  const moved = report.raw.moved;
  if (moved.length > 0) {
    const shown = moved.slice(0, 10).map((move) => `${move.from} → ${move.to}`).join(', ');
    lines.push(`          ${c.yellow(`${moved.length} moved`)} (same content; no model needed): ${shown}${moved.length > 10 ? `, … and ${moved.length - 10} more` : ''}`);
  }
  if (report.raw.pending.length + report.raw.changed.length + report.raw.deleted.length + moved.length > 0) lines.push(`          ${c.dim('run `wiki ingest raw/` to bring them in')}`);
  for (const file of report.raw.unsupported) lines.push(`          ${c.dim('-')} ${file.path} skipped: ${file.reason}`);
  const p = report.provider;
  if (p.provider) {
    // Said once: when the key chose the provider, `from` already says it is set.
    const keySaid = p.keyVariable !== undefined && p.from.includes(p.keyVariable);
    const key = p.keyVariable && !keySaid ? `${p.keyVariable} ${p.keySet ? 'set' : c.yellow('not set')}` : '';
    const base = p.baseUrl ? `, base URL ${p.baseUrl} (${p.baseUrlFrom})` : '';
    lines.push(`Provider: ${p.provider} (${p.from})${p.model ? `, model ${p.model}` : ''}${base}${key ? `, ${key}` : ''}`);
  } else {
    lines.push(`Provider: ${c.yellow('none')} — set ANTHROPIC_API_KEY or OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)`);
  }
  if (report.localServer) lines.push(`          ${report.localServer}`);
  lines.push(`Usage:    ${renderUsageTotals(report.usage, c)}`);
  lines.push(`Per source: ${renderPerSource(report, c)}`);
  const behind = report.searchBehind ? c.yellow(`; out of date: ${report.searchBehind.pagesNow} page(s) in wiki/ now, changed since (the next search updates it)`) : '';
  if (report.store) {
    const { store } = report;
    const last = store.store.lastWrite ? `, last write ${store.store.lastWrite}` : ', no write yet';
    const behind = store.keptEngine ? store.store.lastSeq - store.keptEngine.seq : undefined;
    const kept = behind === undefined ? 'no engine kept yet (`wiki store sync` keeps one)' : behind > 0 ? `engine kept ${behind} write(s) behind` : 'engine kept up to date';
    lines.push(`Search:   in Postgres ${store.database} (schema ${store.schemaVersion}): ${store.store.pages} page(s)${last}; ${kept}; vectors: ${store.vectors}`);
    const factsLast = store.facts.lastWrite ? `, last write ${store.facts.lastWrite}` : ', none written yet';
    lines.push(`Facts:    in Postgres ${store.database}: ${store.facts.live} live fact(s) from ${store.facts.sources} source(s)${factsLast} (grounding reads this checkout's .wiki/facts.db)`);
  } else lines.push(`Search:   ${renderSearchState(report.search, c)}${behind}`);
  if (report.factsUnavailable) lines.push(c.yellow(`Grounded: unavailable — ${report.factsUnavailable}`));
  if (report.grounding?.mean === null) lines.push(`Grounded: n/a ${c.dim('(no page cites a raw source yet)')}`);
  else if (report.grounding?.share === null) lines.push(`Grounded: n/a ${c.dim(`(no claim sentence to check on ${report.grounding.pages} page(s))`)}`);
  else if (report.grounding) {
    const g = report.grounding;
    const lowest = g.lowest.filter((p) => p.score < 1).map((p) => `${p.path} ${Math.round(p.score * 100)}%`);
    // The same count `wiki lint` reports: claim sentences matched with their cited lines (or, uncited, their sources' facts).
    lines.push(
      `Grounded: ${Math.round((g.share ?? 0) * 100)}% of ${g.claims} claim sentence(s) on ${g.pages} page(s) match their cited lines or their sources' facts${lowest.length ? ` ${c.dim(`(lowest: ${lowest.join(', ')})`)}` : ''}`,
    );
  }
  if (report.staleClaims > 0) lines.push(`Stale claims: ${c.yellow(`${report.staleClaims} sentence(s)`)} cite source lines that changed (\`wiki lint --rule stale-claim\` lists them)`);
  // In `wiki lint`'s words and numbers: open warnings, questions, kept after review.
  if (report.lint) lines.push(`Lint:     ${accountText(report.lint)} ${c.dim('(`wiki lint` lists them)')}`);
  if (report.stale.length > 0) {
    const shown = report.stale.slice(0, 10).map((page) => `${page.path} since ${page.since} (${page.sources.join(', ') || 'a source'} changed)`);
    lines.push(`Stale:    ${c.yellow(`${report.stale.length} page(s)`)} marked since a source changed: ${shown.join('; ')}${report.stale.length > 10 ? `; … and ${report.stale.length - 10} more` : ''}`);
    lines.push(`          ${c.dim('run `wiki lint --fix` (with a model) to update them from the changed lines')}`);
  }
  if (report.coverage) {
    const { sources, low, threshold } = report.coverage;
    const mean = sources.reduce((sum, source) => sum + source.share, 0) / sources.length;
    const below = sources.filter((source) => low.includes(source.source)).map((source) => `${source.source} ${Math.round(source.share * 100)}%`);
    lines.push(`Coverage: ${Math.round(mean * 100)}% of source lines cited by line range on average over ${sources.length} source(s)`);
    if (below.length) lines.push(`          ${c.yellow(`${below.length} below ${Math.round(threshold * 100)}%`)}: ${below.slice(0, 10).join(', ')}${below.length > 10 ? `, … and ${below.length - 10} more` : ''}`);
  }
  lines.push('', 'Recent log:');
  if (report.recentLog.length === 0) lines.push(`  ${c.dim('(empty)')}`);
  for (const entry of report.recentLog) lines.push(`  [${entry.date}] ${entry.op} | ${entry.title}`);
  return lines.join('\n');
}

/**
 * The mean usage of this clone's source ingests; a clone that ingested nothing itself (a fresh
 * clone, say) still says how many sources the committed record lists.
 */
function renderPerSource(report: StatusReport, c: Colors): string {
  const recorded = report.raw.ingested;
  if (report.ingestUsage.runs > 0 || recorded === 0) {
    return `${renderMeanPerSource(report.ingestUsage, c)}${recorded > report.ingestUsage.runs ? c.dim(` (${recorded} source(s) in the committed record)`) : ''}`;
  }
  return `${recorded} source(s) ingested per the committed record (wiki.sources.jsonl) ${c.dim('— no ingest ran on this clone, so its usage is not known here')}`;
}
