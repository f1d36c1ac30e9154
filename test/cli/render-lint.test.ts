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
