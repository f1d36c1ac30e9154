import { describe, expect, it } from 'vitest';
import { repairFindings, startRepairs } from '../../../src/operations/lint/lint-repair.js';
import type { Finding } from '../../../src/wiki/validate/finding.js';

const warn = (rule: string, path: string, line: number, message: string): Finding => ({ rule, severity: 'warning', path, line, message });

describe('repairFindings: what a repair round hands back', () => {
  const changed = [{ path: 'wiki/a.md', change: 'updated' as const }];

  it('hands only findings new on the pages the model changed: not one known before (kept or left, even moved), not another page’s, not its own or the catalog’s', () => {
    const before = [warn('miscited', 'wiki/a.md', 10, '"Kept sentence.": its cited lines say nothing like it'), warn('ungrounded', 'wiki/b.md', 4, '"Elsewhere.": no fact says this')];
    const state = startRepairs(before);
    const now = [
      warn('miscited', 'wiki/a.md', 14, '"Kept sentence.": its cited lines say nothing like it'),
      warn('unsupported-number', 'wiki/a.md', 12, '"In 17 drawers.": 17 appears nowhere in its cited lines'),
      warn('ungrounded', 'wiki/b.md', 5, '"New on an unchanged page.": no fact says this'),
      warn('unindexed', 'wiki/a.md', 1, 'not in the index'),
      warn('llm-contradiction', 'wiki/a.md', 2, 'the model said so'),
    ];
    expect(repairFindings(state, changed, now, 30).map((f) => `${f.rule} ${f.path}:${f.line}`)).toEqual(['unsupported-number wiki/a.md:12']);
    // A second round does not hand the same finding again, whatever line it is on now.
    expect(repairFindings(state, changed, [warn('unsupported-number', 'wiki/a.md', 13, '"In 17 drawers.": 17 appears nowhere in its cited lines')], 30)).toEqual([]);
    expect(state.rounds).toHaveLength(1);
  });

  it('hands back a sentence kept after an earlier review that the model\'s edit of its line opened again, and never one still kept (a played run left two such questions open)', () => {
    const kept = { ...warn('miscited', 'wiki/a.md', 26, '"Kept earlier.": its cited lines hold few of its words'), severity: 'question' as const, keptBecause: 'a paraphrase of its lines' };
    const state = startRepairs([kept]);
    const opened = { ...kept, keptBecause: undefined };
    expect(repairFindings(state, changed, [kept], 30)).toEqual([]);
    expect(repairFindings(state, changed, [opened], 30)).toEqual([opened]);
  });

  it('hands at most the batch size', () => {
    const state = startRepairs([]);
    const now = Array.from({ length: 5 }, (_, i) => warn('ungrounded', 'wiki/a.md', i + 1, `sentence ${i}`));
    expect(repairFindings(state, changed, now, 2)).toHaveLength(2);
  });
});
