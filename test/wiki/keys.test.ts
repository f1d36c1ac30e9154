import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFromPath } from '../../src/wiki/keys.js';

describe('keyFromPath', () => {
  const cases = ['wiki/concepts/attention.md', 'attention.md', 'wiki/a.md.md', 'wiki/.md', '.md', 'wiki/notes.txt', 'wiki/dir/', 'wiki/x.MD', '', 'wiki/user/ann/scratch.md', 'a\\b.md'];
  it.each(cases)('is the file name without .md, as path.posix.basename gives it: %j', (pagePath) => {
    expect(keyFromPath(pagePath)).toBe(path.posix.basename(pagePath, '.md'));
  });
});
