import { describe, expect, it } from 'vitest';
import { changedSourceFindings } from '../../../src/wiki/validate/stale-rules.js';

describe('changed-source: a source that changed since its last ingest, told once', () => {
  it('while its citations number the lines it had: how many, where, what was held back, and a fix that never renumbers by hand', () => {
    const [f] = changedSourceFindings([{ source: 'raw/x.md', behind: true, citations: 12, pages: 3, heldBack: 2 }]);
    expect(f).toMatchObject({ rule: 'changed-source', severity: 'warning', path: 'raw/x.md' });
    expect(f?.message).toBe('raw/x.md changed since its last ingest: 12 citation(s) on 3 page(s) still number the lines it had; 2 finding(s) that check them against the new text are held back until they follow it');
    expect(f?.fix).toMatch(/`wiki ingest raw\/x\.md` \(with a model\), or `wiki lint --fix` \(moves the citations without a model\); never renumber them by hand/);
  });

  it('once they follow it: the new lines wait for a model', () => {
    const [f] = changedSourceFindings([{ source: 'raw/x.md', behind: false, citations: 0, pages: 0, heldBack: 0 }]);
    expect(f?.message).toMatch(/its citations follow the new lines .* waits for a model$/);
    expect(f?.fix).toContain('`wiki ingest raw/x.md`');
  });

  it('a source no page cites by line number: no count of citations to move', () => {
    const [f] = changedSourceFindings([{ source: 'raw/x.md', behind: true, citations: 0, pages: 0, heldBack: 0 }]);
    expect(f?.message).toBe('raw/x.md changed since its last ingest; no page cites its lines by number');
  });

  it('no change, no finding', () => {
    expect(changedSourceFindings([])).toEqual([]);
  });
});
