import type { TurnCall } from '../agent/tool.js';

/**
 * A page of an answer that links to a page another write_file call of the same answer was
 * to write, when that call was refused: the link is broken for that reason, not because the
 * page is unknown, and the refusal says so, naming the call (shared by write_file and
 * append_to_file).
 */

/** The key a `broken-link` reason names as missing, or undefined for any other reason. */
export function missingLinkKey(reason: string): string | undefined {
  return /^broken-link\b.*names a missing page "([^"]+)"/.exec(reason)?.[1];
}

/** Why a link to `[[key]]` is broken: the write_file call(s) of this answer for `paths` were refused (`reason`: the first reason given). */
export function refusedLinkNote(key: string, paths: readonly string[], reason?: string): string {
  const calls = paths.length > 0 ? ` (${paths.join(', ')})` : '';
  const because = reason === undefined ? '' : ` (its first reason: ${reason.length > 300 ? `${reason.slice(0, 300)}…` : reason})`;
  return (
    `[[${key}]] was to be written by another write_file call of this answer${calls}, but that call was refused, so the page does not exist yet${because}: ` +
    'the link is right — fix that page and send it again, or leave the link out'
  );
}

/** The key a refusedLinkNote names (a page refused because the page it links to was), or undefined for any other reason. */
export function refusedThrough(reason: string): string | undefined {
  return /^\[\[([^\]]+)\]\] was to be written by another write_file call of this answer/.exec(reason)?.[1];
}

/** Split refusal reasons into the others and the keys of missing links that `refused` explains. */
export function explainedLinks(reasons: readonly string[], refused: (key: string) => boolean): { kept: string[]; keys: string[] } {
  const keys: string[] = [];
  const kept = reasons.filter((reason) => {
    const key = missingLinkKey(reason);
    if (key === undefined || !refused(key)) return true;
    if (!keys.includes(key)) keys.push(key);
    return false;
  });
  return { kept, keys };
}

/** A write_file call of an answer that was refused: the paths it named and its first reason. */
export interface RefusedWrite {
  paths: string[];
  reason: string | undefined;
}

/** By answer (its calls, as every turn-aware tool of the turn is told of them): the keys its write_file calls were refused. */
const refusedByAnswer = new WeakMap<readonly TurnCall[], Map<string, RefusedWrite>>();

/** The keys the write_file calls of this answer were refused so far, shared by write_file's and append_to_file's batches. */
export function answerRefusals(calls: readonly TurnCall[]): Map<string, RefusedWrite> {
  let refused = refusedByAnswer.get(calls);
  if (refused === undefined) refusedByAnswer.set(calls, (refused = new Map()));
  return refused;
}

export function listKeys(keys: Iterable<string>): string {
  return [...keys].map((key) => `[[${key}]]`).join(', ');
}

/**
 * A page refused for another reason (its YAML) need not be told that links to pages later
 * calls of its answer write are missing: a played model read six such lines as six pages
 * lost. Those links are said once, as links that will stand.
 */
export function withoutPendingLinks(errors: readonly string[], pending: ReadonlySet<string>): [string[], string[]] {
  if (pending.size === 0) return [[...errors], []];
  const kept = errors.filter((error) => {
    const key = missingLinkKey(error);
    return key === undefined || !pending.has(key);
  });
  // Refused for those links alone (a call never held): they are the reason, and stay.
  if (kept.length === errors.length || kept.length === 0) return [[...errors], []];
  return [kept, [`its links to ${listKeys([...pending])} are fine: later write_file calls of this answer write those pages`]];
}
