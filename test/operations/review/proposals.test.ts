import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { isVisibleTo, parseProposal } from '../../../src/operations/review/proposals.js';

const ID = '20261202-001502-3c04b4';
const good = { version: 1, id: ID, command: 'ingest', title: 'raw/a.md', created: '2026-12-02T00:15:02.000Z', log: [], pages: [{ path: 'wiki/sources/a.md', change: 'created', after: 'x\n' }] };

describe('parseProposal: a proposal file is read strictly (a committed review folder can be crafted)', () => {
  it('reads a proposal as written', () => {
    expect(parseProposal(JSON.stringify(good), `review/${ID}.json`)).toEqual(good);
  });

  it.each([
    ['a path out of wiki/', { pages: [{ path: 'wiki/../schema.md', change: 'created', after: 'x' }] }],
    ['a path outside wiki/', { pages: [{ path: 'raw/a.md', change: 'created', after: 'x' }] }],
    ['a hidden segment', { pages: [{ path: 'wiki/.hidden/a.md', change: 'created', after: 'x' }] }],
    ['an updated page with no before', { pages: [{ path: 'wiki/sources/a.md', change: 'updated', after: 'x' }] }],
    ['an id that is no run id', { id: '../x' }],
    ['an unknown field', { extra: true }],
  ])('refuses %s', (_what, patch) => {
    expect(() => parseProposal(JSON.stringify({ ...good, ...patch }), `review/${ID}.json`)).toThrow(ConfigError);
  });

  it('refuses a file holding another proposal than its name says', () => {
    expect(() => parseProposal(JSON.stringify(good), 'review/20261202-001502-aaaaaa.json')).toThrow(/holds proposal/);
  });

  it("a user's proposal is theirs alone; the team's is everyone's", () => {
    const alices = parseProposal(JSON.stringify({ ...good, user: 'alice' }), `review/${ID}.json`);
    expect(isVisibleTo(alices, 'alice')).toBe(true);
    expect(isVisibleTo(alices, 'bob')).toBe(false);
    expect(isVisibleTo(alices, undefined)).toBe(false);
    expect(isVisibleTo(parseProposal(JSON.stringify(good), `review/${ID}.json`), 'bob')).toBe(true);
  });
});
