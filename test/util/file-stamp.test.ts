import { describe, expect, it } from 'vitest';
import { RACY_WINDOW_MS, unchangedSince } from '../../src/util/file-stamp.js';

describe('unchangedSince', () => {
  const seenAt = 1_000_000;
  const old = seenAt - RACY_WINDOW_MS - 1;
  it.each([
    ['never read', undefined, { mtimeMs: old, size: 10 }, false],
    ['same stat, mtime well before the read', { mtimeMs: old, size: 10, seenAt }, { mtimeMs: old, size: 10 }, true],
    ['size changed', { mtimeMs: old, size: 10, seenAt }, { mtimeMs: old, size: 11 }, false],
    ['mtime changed', { mtimeMs: old, size: 10, seenAt }, { mtimeMs: old + 1, size: 10 }, false],
    ['same stat, mtime inside the racy window', { mtimeMs: seenAt - RACY_WINDOW_MS, size: 10, seenAt }, { mtimeMs: seenAt - RACY_WINDOW_MS, size: 10 }, false],
    ['same stat, mtime after the read', { mtimeMs: seenAt + 5, size: 10, seenAt }, { mtimeMs: seenAt + 5, size: 10 }, false],
  ])('%s → %s', (_name, stamp, now, expected) => {
    expect(unchangedSince(stamp, now)).toBe(expected);
  });
});
