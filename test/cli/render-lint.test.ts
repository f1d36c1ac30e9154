import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderLint } from '../../src/cli/render-lint.js';
import type { Finding } from '../../src/wiki/validate/finding.js';

const c = pc.createColors(false);
const number = (line: number, fix: string): Finding => ({ rule: 'unsupported-number', severity: 'warning', path: 'wiki/concepts/a.md', line, message: `"In 2023 …": 2023 appears nowhere`, fix });

describe('the lint report', () => {
  it('gives each finding its own fix when a rule\'s findings need different ones, and one fix for the rule when they agree', () => {
    const report = { findings: [number(12, 'cite the lines'), number(14, 'cite the source')], errors: 0, warnings: 2, changes: [] };
    const lines = renderLint(report, c, { fix: false, strict: false }).split('\n');
    const at = lines.findIndex((line) => line.includes('a.md:12'));
    expect(lines[at + 1]).toBe('    fix: cite the lines');
    expect(lines[at + 2]).toContain('a.md:14');
    expect(lines[at + 3]).toBe('    fix: cite the source');
    const same = renderLint({ ...report, findings: [number(12, 'cite the lines'), number(14, 'cite the lines')] }, c, { fix: false, strict: false });
    expect(same.match(/fix: cite the lines/g)).toHaveLength(1);
  });
});

describe('the lint report after --fix', () => {
  it('says no rule repairs were applied, not "nothing to repair" (a played review read that beside a model review that had changed pages)', () => {
    const text = renderLint({ findings: [], errors: 0, warnings: 0, changes: [] }, c, { fix: true, strict: false });
    expect(text).toContain('--fix: no rule repairs to apply');
    expect(text).not.toContain('nothing to repair');
  });
});

describe('the lint report of a rule with warnings and questions (held-out played wiki 11)', () => {
  const long = 'Observables were first proposed to TC39 in May 2015 but did not gain traction, partly because of opposition to making them a language-level primitive';
  const finding = (line: number, severity: 'warning' | 'question', reason: string): Finding => ({
    rule: 'miscited',
    severity,
    path: 'wiki/sources/o.md',
    line,
    message: `"${long}.": ${reason} (raw/o.md#L515-523 say: "515│${'x'.repeat(300)}")`,
  });

  it('lists warnings first under --rule and marks each line with its severity', () => {
    const report = { findings: [finding(38, 'question', 'it denies "gain", which its cited lines do not deny'), finding(12, 'warning', 'it names "MIT", which its sources never mention')], errors: 0, warnings: 1, changes: [] };
    const lines = renderLint(report, c, { fix: false, strict: false, view: { rules: ['miscited'] } }).split('\n').filter((line) => line.startsWith('  wiki/'));
    expect(lines[0]).toMatch(/^ {2}wiki\/sources\/o\.md:12 {2}warning: "Observables/);
    expect(lines[1]).toMatch(/^ {2}wiki\/sources\/o\.md:38 {2}question: "Observables/);
  });

  it('a short line keeps the reason and leaves the cited lines to --rule', () => {
    const report = { findings: [finding(12, 'warning', 'it names "MIT", which its sources never mention')], errors: 0, warnings: 1, changes: [] };
    const line = renderLint(report, c, { fix: false, strict: false }).split('\n').find((text) => text.startsWith('  wiki/'));
    expect(line).toMatch(/^ {2}wiki\/sources\/o\.md:12 {2}".{60,70}…": it names "MIT", which its sources never mention$/);
  });

  it('marks nothing when a rule has one severity', () => {
    const report = { findings: [finding(12, 'warning', 'it names "MIT", which its sources never mention')], errors: 0, warnings: 1, changes: [] };
    const text = renderLint(report, c, { fix: false, strict: false });
    expect(text).toContain('o.md:12  "');
    expect(text).not.toContain('warning: "');
  });
});
