import { applyPatch, structuredPatch } from 'diff';

/**
 * A proposal's page onto the page as it is now. `base` is what the run saw, `proposed` what
 * it made of it, `current` what the page holds today. Unchanged since: the proposal as it
 * is. Changed: the run's edit applied to today's page when every hunk still finds its
 * lines and their context unchanged (no fuzz); otherwise undefined — the person decides.
 */
export function mergeOnto(base: string | undefined, current: string | undefined, proposed: string | undefined): { text: string | undefined } | undefined {
  if (current === base) return { text: proposed };
  if (current === proposed) return { text: proposed };
  // Created by the run, and by someone else meanwhile; or removed by one side: no common ground.
  if (base === undefined || current === undefined || proposed === undefined) return undefined;
  const patch = structuredPatch('a', 'b', base, proposed, '', '', { context: 3 });
  const merged = applyPatch(current, patch, { fuzzFactor: 0 });
  return merged === false ? undefined : { text: merged };
}
