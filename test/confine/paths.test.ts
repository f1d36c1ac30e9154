import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/errors.js';
import { deniedSegmentReason, normalizeWorkspacePath } from '../../src/confine/paths.js';

describe('normalizeWorkspacePath', () => {
  it.each([
    ['raw/paper.md', 'raw/paper.md'],
    ['./raw//paper.md', 'raw/paper.md'],
    ['wiki/concepts/', 'wiki/concepts'],
    ['.', ''],
    ['./', ''],
    ['raw/a%20b.md', 'raw/a%20b.md'],
    ['raw/...md', 'raw/...md'],
    ['raw/..hidden', 'raw/..hidden'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeWorkspacePath(input)).toBe(expected);
  });

  it.each([
    ['', /path is empty/],
    ['/abs', /absolute paths/],
    ['C:/x', /absolute paths/],
    ['z:x', /absolute paths/],
    ['a\\b', /backslashes/],
    ['~/x', /home-directory/],
    ['a/../b', /"\.\." is not allowed/],
    ['..', /"\.\." is not allowed/],
    ['a/....', /"\.\." is not allowed/],
    ['a/．．/b', /"\.\." is not allowed/],
    ['a/%2E%2E/b', /%-escapes/],
    ['a/%2fb', /%-escapes/],
    ['a/%00', /%-escapes/],
    ['a\u0000b', /control characters/],
    ['a\tb', /control characters/],
  ])('refuses %j', (input, message) => {
    expect(() => normalizeWorkspacePath(input)).toThrow(SandboxError);
    expect(() => normalizeWorkspacePath(input)).toThrow(message);
  });
});

describe('deniedSegmentReason', () => {
  it.each(['.wiki', '.git', '.GIT', '.env', '.env.local', '.envrc', '.env.', '.env ', 'node_modules'])('denies %j', (name) => {
    expect(deniedSegmentReason(name)).toBeDefined();
  });
  it.each(['wiki', 'raw', 'env', 'environment.md', '.obsidian', '.gitignore-notes', 'git'])('allows %j', (name) => {
    expect(deniedSegmentReason(name)).toBeUndefined();
  });
});
