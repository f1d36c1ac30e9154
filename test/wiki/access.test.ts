import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { capRank, isVisibleTo, scopeOf, usageModeOf, visibilityRank } from '../../src/wiki/access.js';
import { parsePage } from '../../src/wiki/page.js';
import { parseSchema } from '../../src/wiki/schema-loader.js';

const contract = parseSchema(readFileSync(new URL('../../templates/schema.md', import.meta.url), 'utf8')).contract;
const page = (path: string, fields: string) => parsePage(path, `---\ntitle: T\n${fields}\n---\nbody\n`, contract);

describe('visibility', () => {
  it.each([
    { fields: '', rank: 0, why: 'missing: the default (public)' },
    { fields: 'visibility: public', rank: 0, why: 'public' },
    { fields: 'visibility: internal', rank: 1, why: 'internal' },
    { fields: 'visibility: private', rank: 2, why: 'private' },
    { fields: 'visibility: Secret', rank: 2, why: 'unknown (a typo, or a level this reader has not loaded): the most restrictive' },
    { fields: 'visibility: board-only', rank: 2, why: 'a level added to schema.md after the reader started: the most restrictive' },
    { fields: 'visibility: [private]', rank: 2, why: 'not text: the most restrictive' },
  ])('$why', ({ fields, rank }) => {
    expect(visibilityRank(contract, page('wiki/concepts/a.md', fields))).toBe(rank);
  });

  it('has no rank for a page whose frontmatter does not parse, so no cap serves it', () => {
    const broken = parsePage('wiki/concepts/a.md', '---\ntitle: [x\nvisibility: public\n---\nbody\n', contract);
    expect(visibilityRank(contract, broken)).toBeUndefined();
    expect(isVisibleTo(contract, broken, { maxRank: 2 })).toBe(false);
  });

  it('serves up to the cap', () => {
    const internal = page('wiki/concepts/a.md', 'visibility: internal');
    expect(isVisibleTo(contract, internal, { maxRank: capRank(contract, 'public') })).toBe(false);
    expect(isVisibleTo(contract, internal, { maxRank: capRank(contract, 'internal') })).toBe(true);
    expect(capRank(contract, 'secret')).toBeUndefined();
  });
});

describe('usage_mode and scopes', () => {
  it.each([
    ['usage_mode: always', 'always'],
    ['usage_mode: never', 'never'],
    ['usage_mode: auto', 'auto'],
    ['', 'auto'],
    ['usage_mode: sometimes', 'auto'],
  ])('%s → %s', (fields, mode) => {
    expect(usageModeOf(page('wiki/concepts/a.md', fields).frontmatter)).toBe(mode);
  });

  it.each([
    ['wiki/user/alice/concepts/a.md', 'alice'],
    ['wiki/user/alice/a.md', 'alice'],
    ['wiki/user/a.md', undefined],
    ['wiki/concepts/a.md', undefined],
  ])('%s is in the scope of %s', (path, scope) => {
    expect(scopeOf(path)).toBe(scope);
  });

  it('shows a never page to nobody, and a scratch page only to its user', () => {
    expect(isVisibleTo(contract, page('wiki/concepts/a.md', 'usage_mode: never'), {})).toBe(false);
    const scratch = page('wiki/user/alice/concepts/a.md', '');
    expect(isVisibleTo(contract, scratch, { user: 'alice' })).toBe(true);
    expect(isVisibleTo(contract, scratch, { user: 'bob' })).toBe(false);
    expect(isVisibleTo(contract, scratch, {})).toBe(false);
    expect(scratch.type).toBe('concept');
  });
});
