import type { ChangedFile } from '../../agent/changes.js';
import type { CandidateFact } from '../../facts/grounding.js';
import type { Finding } from '../../wiki/validate/finding.js';
import { RULES } from '../../wiki/validate/rules/index.js';
import { groundingRepairRequest } from './grounding.js';

/**
 * The repair rounds of `lint --fix`: when the model's own writes leave new findings on the
 * pages it changed, they are handed back in the same conversation, so it can fix them or
 * keep them with a reason — at most REPAIR_ROUNDS times, each with at most `lint.fixBatch`
 * findings, and only while the run has REPAIR_TURNS turns left.
 */

/** Follow-up rounds a run may get after its first answer. */
export const REPAIR_ROUNDS = 2;
/** Turns a round needs at least: one to write, one to answer. */
export const REPAIR_TURNS = 2;

/** A finding's identity across a rewrite: its line moves when lines above it change, its message does not. */
export function findingIdentity(finding: Finding): string {
  return `${finding.rule}\n${finding.path}\n${finding.message}`;
}

/** `- [warning] miscited wiki/x.md:12 — message`: how a finding is handed to the model. */
export function findingLine(finding: Finding): string {
  return `- [${finding.severity}] ${finding.rule} ${finding.path}${finding.line ? `:${finding.line}` : ''} — ${finding.message}`;
}

/** Rules the tool's own repairs settle after the run (the catalog): never handed back (a dry run cannot apply them first). */
const TOOL_REPAIRED: ReadonlySet<string> = new Set(RULES.filter((rule) => rule.fix === 'always').map((rule) => rule.id));

export interface RepairState {
  /** Findings known before the round: open before the run, or handed in an earlier repair round. */
  known: Set<string>;
  /** The findings each repair round handed, in order. */
  rounds: Finding[][];
}

/** `before`: the findings as the run began, kept ones marked (`keptBecause`): those are not known as open. */
export function startRepairs(before: readonly Finding[]): RepairState {
  return { known: new Set(before.filter((f) => f.keptBecause === undefined).map(findingIdentity)), rounds: [] };
}

/**
 * The findings to hand back after a round: on a page the model changed in this run, open
 * (not kept after review: `now` comes marked) and not known open before it (so neither one
 * it was handed nor one it left alone elsewhere on the page — but a sentence kept earlier
 * that its edit of the line opened again is handed back: a played run left two such open),
 * not the model's own, at most `size`; empty when none is new.
 */
export function repairFindings(state: RepairState, changed: readonly ChangedFile[], now: readonly Finding[], size: number): Finding[] {
  const pages = new Set(changed.map((c) => c.path));
  const fresh = now.filter((f) => pages.has(f.path) && f.keptBecause === undefined && !f.rule.startsWith('llm-') && !TOOL_REPAIRED.has(f.rule) && !state.known.has(findingIdentity(f)));
  const handed = fresh.slice(0, Math.max(0, size));
  for (const f of handed) state.known.add(findingIdentity(f));
  if (handed.length > 0) state.rounds.push(handed);
  return handed;
}

/** The follow-up message of repair round `round` (1-based): the findings, one a line, with the evidence the batch has. */
export async function repairRequest(root: string, round: number, findings: readonly Finding[], evidence: Record<string, CandidateFact[]> | undefined): Promise<string> {
  const lines = [
    `Your changes left ${findings.length} new finding(s) on the pages you changed (repair round ${round} of at most ${REPAIR_ROUNDS}). ` +
      'Fix each, or leave a flagged sentence that is right and give a KEEP line for it; end as before, with FINDING and KEEP lines for these only:',
    '',
    ...findings.map(findingLine),
  ];
  const grounding = evidence ? await groundingRepairRequest(root, findings, evidence) : '';
  return [lines.join('\n'), grounding].filter(Boolean).join('\n\n');
}
