import type { ExtractionReport } from '../facts/extract.js';
import type { Fact, FactHit, FactStats } from '../facts/store-schema.js';
import { citeLines } from '../facts/store.js';
import type { FactsAnswer } from '../operations/query/query-facts.js';
import type { Colors } from './output.js';

export function renderFactHits(hits: FactHit[], c: Colors): string {
  if (hits.length === 0) return c.dim('no facts found');
  return hits.map((hit) => `${c.bold(hit.id)}  ${hit.text}\n    ${c.dim(hit.sources.join(', '))}`).join('\n');
}

export function renderFact(fact: Fact, c: Colors): string {
  const lines = [c.bold(fact.id), fact.text, ''];
  lines.push(`first seen   ${fact.firstSeen}`);
  if (fact.tombstonedAt) lines.push(`tombstoned   ${fact.tombstonedAt}`);
  lines.push('provenance');
  for (const p of fact.provenance) {
    lines.push(`  ${citeLines(p.source, p.lineStart, p.lineEnd)}${p.heading ? ` ${c.dim(`(${p.heading})`)}` : ''}  ${c.dim(`sha256 ${p.sha256.slice(0, 12)}`)}`);
  }
  if (fact.provenance.length === 0) lines.push(`  ${c.dim('(none: no source states it any more)')}`);
  if (fact.lineage.length > 0) {
    lines.push('lineage');
    for (const step of fact.lineage) lines.push(`  ${c.dim(step.replacedAt)}  ${step.previousText}`);
  }
  return lines.join('\n');
}

export function renderFactStats(stats: FactStats & { where?: string }): string {
  return [
    ...(stats.where ? [`stored in          ${stats.where}`] : []),
    `facts              ${stats.live} live, ${stats.tombstoned} tombstoned`,
    `sources            ${stats.sources}`,
    `duplicates merged  ${stats.duplicatesMerged}`,
    `reworded           ${stats.reworded}`,
  ].join('\n');
}

export function renderExtraction(report: ExtractionReport & { database?: { database: string; offered: number; accepted: number } }): string {
  const { sources, facts } = report;
  const lines = [
    `sources  ${sources.extracted} extracted, ${sources.unchanged} unchanged, ${sources.removed} removed`,
    `facts    ${facts.inserted} new, ${facts.merged} merged, ${facts.reworded} reworded, ${facts.tombstoned} tombstoned`,
  ];
  if (report.database) lines.push(`database ${report.database.database}: ${report.database.offered} source(s) offered, ${report.database.accepted} newer and stored`);
  if (sources.unreadable.length > 0) lines.push(`unreadable  ${sources.unreadable.join(', ')}`);
  for (const why of sources.refused) lines.push(`refused     ${why}`);
  if (sources.tooLarge.length > 0) lines.push(`too large   ${sources.tooLarge.join(', ')} (over facts.maxSourceBytes; not segmented)`);
  return lines.join('\n');
}

export function renderFactsAnswer(answer: FactsAnswer, c: Colors): string {
  if (!answer.modelCalled) return c.dim(answer.answer);
  const lines = [answer.answer, ''];
  for (const fact of answer.facts.filter((f) => answer.cited.includes(f.id))) lines.push(`[^${fact.id}]: ${fact.text} ${c.dim(`(${fact.sources.join(', ')})`)}`);
  if (answer.cited.length === 0) lines.push(c.yellow('the answer cites no fact'));
  if (answer.unknown.length > 0) lines.push(c.yellow(`cited ids that are no fact: ${answer.unknown.join(', ')}`));
  return lines.join('\n');
}
