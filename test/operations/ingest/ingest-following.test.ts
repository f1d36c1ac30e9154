import { describe, expect, it } from 'vitest';
import { staleClaimsMessage } from '../../../src/operations/ingest/ingest-following.js';
import type { SourceFollowing } from '../../../src/operations/sources/follow-source.js';
import type { StaleClaim } from '../../../src/state/stale-claims.js';

/** What the model is told of a changed source's stale sentences. */

const claim = (page: string, sentence: string, first: number, was: string, now: string): StaleClaim => ({
  page,
  sentence,
  line: 12,
  source: 'raw/x.md',
  first,
  last: first,
  was,
  now,
  nowFirst: first + 2,
  nowLast: first + 2,
  since: '2026-12-02',
});

const following = (staleClaims: StaleClaim[]): SourceFollowing => ({ earlierKnown: true, citationsMoved: 3, movedByHand: 0, rewritten: [], staleClaims, uncited: [], newLines: [], offsets: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90] });

describe('staleClaimsMessage', () => {
  it('lists sentences citing the same changed lines under one was/now, and says which words changed (a played message repeated three such pairs, and the player compared 600-character lines by eye)', () => {
    const was = 'Access is gated by third-party cookie deprecation and the embedder.';
    const now = 'Access is gated by enrollment and attestation and the embedder.';
    const text = staleClaimsMessage(following([claim('wiki/a.md', 'Access is gated by deprecation.', 4, was, now), claim('wiki/b.md', 'Gated by cookie deprecation.', 4, was, now), claim('wiki/a.md', 'Other.', 7, 'Chrome 147 ships it.', 'Chrome 148 ships it.')])).join('\n');
    expect(text.match(/ {2}was: Access is gated/g)).toHaveLength(1);
    expect(text).toContain('- wiki/a.md line 12: "Access is gated by deprecation." <!-- from: raw/x.md#L4-4 -->\n- wiki/b.md line 12: "Gated by cookie deprecation." <!-- from: raw/x.md#L4-4 -->');
    expect(text).toContain('what changed: "third-party cookie deprecation and" → "enrollment and attestation and"');
    expect(text).toContain('what changed: "147" → "148"');
    expect(text).toContain('in the old version\'s numbers');
  });

  it('names no changed words when the cited lines went', () => {
    const text = staleClaimsMessage(following([claim('wiki/a.md', 'Gone.', 4, 'A removed paragraph.', '')])).join('\n');
    expect(text).toContain('now (now lines 6-6, read_file offset 50): (removed)');
    expect(text).not.toContain('what changed');
  });
});
