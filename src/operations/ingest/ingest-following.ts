import { diffWords } from 'diff';
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
  const lines = [
    '',
    `Citations whose lines only moved were updated for you (${moved}). Below, "now lines" are the new version's numbers; each stale sentence's citation is shown as its page still has it, in the old version's numbers.`,
  ];
  if (following.staleClaims.length === 0) lines.push('No cited line changed.');
  else {
    lines.push(
      `${following.staleClaims.length} sentence(s) cite lines that CHANGED. For each: if the new lines still support it, re-cite it to them; if not, rewrite it from the new lines or remove it (use write_file edits for a sentence). A sentence left as it is stays marked stale.`,
    );
    // Sentences citing the same changed lines are listed under one was/now (a played message repeated three such pairs).
    const shown = following.staleClaims.slice(0, MESSAGE_MAX_CLAIMS);
    const byRange = new Map<string, typeof shown>();
    for (const claim of shown) {
      const range = `${claim.source}#L${claim.first}-${claim.last}`;
      byRange.set(range, [...(byRange.get(range) ?? []), claim]);
    }
    for (const [range, claims] of byRange) {
      const claim = claims[0];
      if (!claim) continue;
      const where = claim.nowFirst !== undefined && claim.nowLast !== undefined && claim.nowLast >= claim.nowFirst ? ` (now lines ${claim.nowFirst}-${claim.nowLast}, read_file offset ${following.offsets[claim.nowFirst - 1] ?? 0})` : '';
      lines.push('');
      for (const each of claims) lines.push(`- ${each.page} line ${each.line}: "${cut(each.sentence)}" <!-- from: ${range} -->`);
      lines.push(`  was: ${cut(claim.was) || '(empty)'}`, `  now${where}: ${cut(claim.now) || '(removed)'}`);
      const changed = changedWords(claim.was, claim.now);
      if (changed) lines.push(`  what changed: ${changed}`);
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

/** Most changed stretches a "what changed" line names. */
const MAX_CHANGES = 6;

/**
 * The words that differ between the old and the new cited text, as `"old" → "new"` pairs
 * (a played model compared 600-character was/now lines by eye); empty when the lines went.
 */
function changedWords(was: string, now: string): string {
  if (was.trim() === '' || now.trim() === '') return '';
  const parts = diffWords(was.replace(/\s+/g, ' ').trim(), now.replace(/\s+/g, ' ').trim());
  // Changes a word or two apart are one change ("A and B" → "C and D", not two).
  const hunks: Array<{ removed: string; added: string }> = [];
  let open: { removed: string; added: string } | undefined;
  parts.forEach((part, index) => {
    if (part.added || part.removed) {
      open ??= { removed: '', added: '' };
      if (part.removed) open.removed += part.value;
      else open.added += part.value;
      return;
    }
    const bridges = open !== undefined && part.value.trim().split(/\s+/).length <= 2 && parts.slice(index + 1).some((later) => later.added || later.removed);
    if (open && bridges) {
      open.removed += part.value;
      open.added += part.value;
      return;
    }
    if (open) hunks.push(open);
    open = undefined;
  });
  if (open) hunks.push(open);
  const changes = hunks.map(({ removed, added }) => `${removed.trim() ? `"${cutShort(removed.trim())}"` : '(nothing)'} → ${added.trim() ? `"${cutShort(added.trim())}"` : '(nothing)'}`);
  if (changes.length === 0) return '';
  return changes.length > MAX_CHANGES ? `${changes.slice(0, MAX_CHANGES).join('; ')}; and ${changes.length - MAX_CHANGES} more` : changes.join('; ');
}

function cutShort(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MESSAGE_MAX_EXCERPT ? `${flat.slice(0, MESSAGE_MAX_EXCERPT)}…` : flat;
}
