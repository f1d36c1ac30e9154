import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { citedRanges, lineWindow, namedWindowLines } from '../../../src/operations/lint/cited-windows.js';
import { tempDir } from '../../helpers/cli.js';
import type { Finding } from '../../../src/wiki/validate/finding.js';

/** The read_file arguments that show just a flagged sentence's cited lines. */
describe('lineWindow', () => {
  const text = ['one', 'two', 'three', 'four', 'five'].join('\n');

  it('starts where the first line starts and ends after the last, newline included', () => {
    const window = lineWindow(text, 2, 3);
    expect(window).toEqual({ offset: 4, limit: 10, first: 2, last: 3 });
    expect(text.slice(window?.offset, (window?.offset ?? 0) + (window?.limit ?? 0))).toBe('two\nthree\n');
  });

  it('stops at the end of the text, and is undefined past it', () => {
    expect(lineWindow(text, 4, 9)).toEqual({ offset: 14, limit: 9, first: 4, last: 5 });
    expect(lineWindow(text, 7, 9)).toBeUndefined();
  });

  it('a long range is cut after whole lines at about 6,000 characters', () => {
    const long = Array.from({ length: 200 }, (_, i) => `line ${i + 1} ${'x'.repeat(90)}`).join('\n');
    const window = lineWindow(long, 1, 200);
    expect(window?.limit).toBeLessThanOrEqual(6000);
    expect(long.slice(0, window?.limit).endsWith('\n')).toBe(true);
    expect(window?.last).toBeLessThan(200);
  });
});

describe('citedRanges', () => {
  const finding = (message: string): Finding => ({ rule: 'miscited', severity: 'warning', path: 'wiki/a.md', line: 3, message });
  it('reads the ranges a finding says its sentence cites', () => {
    expect(citedRanges(finding('"X": it denies "y", which its cited lines do not deny (raw/a.md#L124, raw/b.md#L288-296 say: "…")'))).toEqual([
      { file: 'raw/a.md', first: 124, last: 124 },
      { file: 'raw/b.md', first: 288, last: 296 },
    ]);
    expect(citedRanges(finding('"X": no fact of its sources says this (closest fact f-1: "…")'))).toEqual([]);
  });
});

describe('namedWindowLines', () => {
  it("gives the read_file call for source lines a model's finding names in its own words, and none for a grounding finding (its cited lines are shown apart)", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'raw'), { recursive: true });
    await writeFile(path.join(root, 'raw/s.md'), ['one', 'two', 'three', 'four', 'five', 'six'].join('\n'));
    const model: Finding = { rule: 'llm-contradiction', severity: 'warning', path: 'wiki/a.md', message: 'it says more; raw/s.md#L4-5 gives only the expiry. (reported by the model review)' };
    const grounding: Finding = { rule: 'miscited', severity: 'warning', path: 'wiki/b.md', line: 2, message: '"x": its cited lines share no word with it (raw/s.md#L1 say: "1│one")' };
    const lines = await namedWindowLines(root, [model, grounding]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^- llm-contradiction wiki\/a\.md — read_file raw\/s\.md offset \d+ limit \d+ \(lines \d+–\d+\)$/);
  });
});
