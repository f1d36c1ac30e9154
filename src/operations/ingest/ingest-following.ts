import type { SourceFollowing } from '../sources/follow-source.js';

/** Stale sentences handed to the model in the first message; the rest are counted. */
const MESSAGE_MAX_CLAIMS = 40;
const MESSAGE_MAX_EXCERPT = 600;
const MESSAGE_MAX_NEW_RANGES = 20;

/**
 * What the model is told of the change: how many citations moved, each sentence whose cited
 * lines changed (old text, new text and where the new text is), and the lines new in this
 * version — so it reads only what changed, not the whole source again.
 */
export function staleClaimsMessage(following: SourceFollowing): string[] {
  if (!following.earlierKnown) return [];
  const moved = following.followedEarlier ? `${following.citationsMoved} moved now; \`wiki lint --fix\` had moved the others earlier` : `${following.citationsMoved} moved`;
  const lines = ['', `Citations whose lines only moved were updated for you (${moved}); the line numbers below are the new version's.`];
  if (following.staleClaims.length === 0) lines.push('No cited line changed.');
  else {
    lines.push(
      `${following.staleClaims.length} sentence(s) cite lines that CHANGED. For each: if the new lines still support it, re-cite it to them; if not, rewrite it from the new lines or remove it (use write_file edits for a sentence). A sentence left as it is stays marked stale.`,
    );
    for (const claim of following.staleClaims.slice(0, MESSAGE_MAX_CLAIMS)) {
      const where = claim.nowFirst !== undefined && claim.nowLast !== undefined && claim.nowLast >= claim.nowFirst ? ` (now lines ${claim.nowFirst}-${claim.nowLast}, read_file offset ${following.offsets[claim.nowFirst - 1] ?? 0})` : '';
      lines.push(
        '',
        `- ${claim.page} line ${claim.line}: "${cut(claim.sentence)}" <!-- from: ${claim.source}#L${claim.first}-${claim.last} -->`,
        `  was: ${cut(claim.was) || '(empty)'}`,
        `  now${where}: ${cut(claim.now) || '(removed)'}`,
      );
    }
    if (following.staleClaims.length > MESSAGE_MAX_CLAIMS) lines.push('', `(${following.staleClaims.length - MESSAGE_MAX_CLAIMS} more: \`wiki lint\` lists them all.)`);
  }
  if (following.newLines.length > 0) {
    lines.push('', `Lines new in this version (inserted or rewritten; add what they say to the pages where it belongs):`);
    for (const range of following.newLines.slice(0, MESSAGE_MAX_NEW_RANGES)) lines.push(`- lines ${range.first}-${range.last} (read_file offset ${range.offset}): ${cut(range.text)}`);
    if (following.newLines.length > MESSAGE_MAX_NEW_RANGES) lines.push(`(${following.newLines.length - MESSAGE_MAX_NEW_RANGES} more ranges)`);
  }
  lines.push('', 'You need not read the whole source again: read the lines above where you need more context, then update the pages.');
  return lines;
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MESSAGE_MAX_EXCERPT ? `${flat.slice(0, MESSAGE_MAX_EXCERPT)}…` : flat;
}
