import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { parseSchema } from '../../../src/wiki/schema-loader.js';
import { validateWrite } from '../../../src/wiki/validate-write.js';
import { PageIndex } from '../../../src/wiki/page-index.js';
import { RULE_SEVERITY, type Finding } from '../../../src/wiki/validate/finding.js';
import { applyRuleSettings } from '../../../src/wiki/validate/rule-settings.js';
import { GROUNDING_RULES, RULES, ruleById } from '../../../src/wiki/validate/rules/index.js';
import { healthyWiki, lint, page } from '../lint-fixture.js';

const REPO = new URL('../../../', import.meta.url).pathname;
const TEMPLATE = readFileSync(path.join(REPO, 'templates/schema.md'), 'utf8');
const RULES_DIR = path.join(REPO, 'src/wiki/validate/rules');

/** schema.md with `lint:` lines added at the end of its contract. */
function withLint(lines: string): string {
  return TEMPLATE.replace(/\n {2}types:\n/, `\n  lint:\n${lines.split('\n').map((l) => `    ${l}`).join('\n')}\n  types:\n`);
}

/** Every `finding('<id>', …)` the source calls, found by reading the source (a rule used but not registered fails here). */
function idsTheSourceReports(): Set<string> {
  const ids = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) for (const m of readFileSync(file, 'utf8').matchAll(/\bfinding\(\s*'([a-z-]+)'/g)) ids.add(m[1] ?? '');
    }
  };
  walk(path.join(REPO, 'src'));
  return ids;
}

describe('the rule registry', () => {
  it('is one file per rule, each registered once, ids unique', () => {
    const files = readdirSync(RULES_DIR).filter((f) => f !== 'index.ts').map((f) => f.replace(/\.ts$/, '')).sort();
    expect(RULES.map((r) => r.id).sort()).toEqual(files);
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
  });

  it('holds every rule the source reports, and the severity map is read from it', () => {
    const registered = new Set(RULES.map((r) => r.id));
    for (const id of idsTheSourceReports()) expect(registered, `finding('${id}') has no rule in the registry`).toContain(id);
    for (const rule of RULES) expect(RULE_SEVERITY[rule.id]).toBe(rule.severity);
  });

  it('keeps the grounding ids, and marks the rules that guard trust', () => {
    expect([...GROUNDING_RULES].sort()).toEqual(['miscited', 'ungrounded', 'unsupported-number']);
    expect(RULES.filter((r) => r.guardsTrust).map((r) => r.id).sort()).toEqual(
      ['access-field', 'human-edit', 'linked-folder', 'merge-conflict', 'owner-field', 'tool-owned-field', 'unreadable-page'].sort(),
    );
    for (const rule of RULES) expect(rule.description.length).toBeGreaterThan(10);
  });

  it('says which rules a write is checked against: what validateWrite reports is among them', () => {
    const index = PageIndex.fromPages([], parseSchema(TEMPLATE).contract);
    const bad = validateWrite(index, { path: 'wiki/concepts/Bad_Key.md', content: '---\ntitle: x\n---\n\n[[nowhere]] <!-- from: raw/none.md#L1-2 -->\n' }, { contract: parseSchema(TEMPLATE).contract, rawExists: () => false });
    const reported = [...bad.errors, ...bad.warnings].map((f) => f.rule);
    expect(reported.length).toBeGreaterThan(2);
    for (const id of reported) expect(ruleById(id)?.writeTime, id).toBe(true);
  });
});

describe("schema.md's lint settings", () => {
  it('turns a rule off and changes another one’s severity for the whole wiki', () => {
    const plain = lint({ ...healthyWiki(), 'wiki/concepts/lonely.md': page({ title: 'Lonely', summary: 'No one links here.', sources: '[raw/attention.md]' }, 'Text.') });
    expect(plain.filter((f) => f.rule === 'orphan')).toHaveLength(1);
    const contract = parseSchema(withLint('orphan: off\nempty-page: error')).contract;
    expect(contract.lint).toEqual({ orphan: 'off', 'empty-page': 'error' });
    const settled = applyRuleSettings(plain, contract.lint);
    expect(settled.filter((f) => f.rule === 'orphan')).toEqual([]);
    const empty: Finding = { rule: 'empty-page', severity: 'warning', path: 'wiki/concepts/x.md', message: 'the page has no body text' };
    expect(applyRuleSettings([empty], contract.lint)).toEqual([{ ...empty, severity: 'error' }]);
  });

  it('refuses a write on a rule raised to error, and lets through one whose error was lowered', () => {
    const raised = parseSchema(withLint('empty-page: error')).contract;
    const index = PageIndex.fromPages([], raised);
    const empty = { path: 'wiki/concepts/empty.md', content: '---\ntitle: Empty\nsummary: Nothing yet.\n---\n' };
    expect(validateWrite(index, empty, { contract: raised, rawExists: () => true }).ok).toBe(false);
    const lowered = parseSchema(withLint('broken-link: warning')).contract;
    const linked = { path: 'wiki/concepts/a.md', content: '---\ntitle: A\nsummary: A page.\nsources: [raw/a.md]\n---\n\nSee [[nowhere]].\n' };
    const verdict = validateWrite(index, linked, { contract: lowered, rawExists: () => true });
    expect(verdict.errors).toEqual([]);
    expect(verdict.ok).toBe(true);
    expect(verdict.warnings.map((f) => f.rule)).toContain('broken-link');
  });

  it('keeps a question a question unless its rule is off', () => {
    const question: Finding = { rule: 'ungrounded', severity: 'question', path: 'wiki/concepts/x.md', line: 3, message: '"…": it denies "end"' };
    expect(applyRuleSettings([question], { ungrounded: 'error' })).toEqual([question]);
    expect(applyRuleSettings([question], { ungrounded: 'off' })).toEqual([]);
    const warning: Finding = { ...question, severity: 'warning' };
    expect(applyRuleSettings([warning], { ungrounded: 'question' })).toEqual([question]);
  });

  it('names an unknown rule and the file', () => {
    expect(() => parseSchema(withLint('orphans: off'))).toThrow(ConfigError);
    expect(() => parseSchema(withLint('orphans: off'))).toThrow(/schema\.md: .*contract\.lint\.orphans: no lint rule is called "orphans"/);
    expect(() => parseSchema(withLint('orphan: loud'))).toThrow(/contract\.lint\.orphan: must be one of off, question, warning, error/);
  });

  const trust = ['access-field', 'owner-field', 'human-edit', 'tool-owned-field', 'unreadable-page', 'merge-conflict'];
  it.each(trust)('will not turn off or lower %s, which guards trust (it may be raised)', (id) => {
    expect(() => parseSchema(withLint(`${id}: off`))).toThrow(new RegExp(`lint rule "${id}" guards trust .*not turned off`));
    expect(() => parseSchema(withLint(`${id}: warning`))).toThrow(/not lowered to warning/);
  });

  it('will not turn off or lower linked-folder, and lets it be raised', () => {
    expect(() => parseSchema(withLint('linked-folder: off'))).toThrow(/guards trust/);
    expect(() => parseSchema(withLint('linked-folder: question'))).toThrow(/not lowered to question/);
    expect(parseSchema(withLint('linked-folder: error')).contract.lint).toEqual({ 'linked-folder': 'error' });
  });

  it('reads the template without a lint map as the defaults', () => {
    expect(parseSchema(TEMPLATE).contract.lint ?? {}).toEqual({});
  });
});

describe('the docs of the lint setting', () => {
  it('README names every rule and every rule that guards trust; the template shows the setting', () => {
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Lint rules in schema.md'), readme.indexOf('## Configuration'));
    for (const rule of RULES) expect(section, rule.id).toContain(`\`${rule.id}\``);
    const trusted = /rules that guard trust — (.*?) — may/s.exec(section)?.[1] ?? '';
    expect([...trusted.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]).sort()).toEqual(RULES.filter((r) => r.guardsTrust).map((r) => r.id).sort());
    expect(TEMPLATE).toMatch(/# lint:\n {2}# {3}orphan: off/);
  });
});
