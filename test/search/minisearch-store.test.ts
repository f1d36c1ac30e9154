import { describe, expect, it } from 'vitest';
import { LexicalLane, type AnalysedFields, type LexicalParams } from '../../src/search/lexical.js';
import { analyze } from '../../src/search/analyze.js';

const params: LexicalParams = {
  k1: 1.2,
  b: 0.75,
  d: 0,
  boosts: { key: 2, title: 2, summary: 0.5, tags: 1.5, body: 1 },
  matchedTermMultiplier: true,
};

function fields(title: string, body: string): AnalysedFields {
  return { key: analyze(title), title: analyze(title), summary: [], tags: [], body: analyze(body) };
}

const PAGES: Array<[string, string, string]> = [
  ['wiki/a.md', 'Wing flutter', 'flutter of a wing at supersonic speed'],
  ['wiki/b.md', 'Heat transfer', 'heat transfer in a boundary layer at high speed'],
  ['wiki/c.md', 'Boundary layer', 'laminar boundary layer separation on a flat plate'],
  ['wiki/d.md', 'Shock waves', 'shock wave and boundary layer interaction at supersonic speed'],
];

const QUERIES = ['boundary layer', 'supersonic speed', 'wing', 'heat shock', 'nothing here'];

describe('LexicalLane persistence (compact MiniSearch form)', () => {
  it('answers every query exactly as the index it was saved from', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    const restored = LexicalLane.decode(lane.encode());
    for (const query of QUERIES) {
      expect(restored.search(analyze(query), 10, params)).toEqual(lane.search(analyze(query), 10, params));
    }
    expect(restored.size).toBe(PAGES.length);
  });

  it('leaves removed pages out and keeps working after further changes', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    lane.remove('wiki/c.md');
    const restored = LexicalLane.decode(lane.encode());
    expect(restored.size).toBe(3);
    expect(restored.search(analyze('laminar'), 10, params)).toEqual([]);
    restored.add('wiki/e.md', fields('Laminar flow', 'laminar flow over a wing'));
    restored.add('wiki/a.md', fields('Wing flutter', 'flutter and divergence'));
    expect(restored.search(analyze('laminar'), 10, params)).toEqual(['wiki/e.md']);
    expect(restored.search(analyze('supersonic'), 10, params)).toEqual(['wiki/d.md']);
    const again = LexicalLane.decode(restored.encode());
    for (const query of [...QUERIES, 'laminar flow', 'divergence']) {
      expect(again.search(analyze(query), 10, params)).toEqual(restored.search(analyze(query), 10, params));
    }
  });

  it('can drop MiniSearch’s matched-term multiplier', () => {
    const lane = LexicalLane.empty();
    for (const [path, title, body] of PAGES) lane.add(path, fields(title, body));
    const query = analyze('boundary layer supersonic');
    const kept = lane.search(query, 10, params);
    const dropped = lane.search(query, 10, { ...params, matchedTermMultiplier: false });
    expect(new Set(dropped)).toEqual(new Set(kept));
  });
});
