import type { Finding } from './finding.js';
import type { Severity } from './rule.js';
import { ruleById, RULES } from './rules/index.js';

/**
 * schema.md's `lint:` map (inside `contract:`): per rule id, `off` or the severity its
 * findings carry in this wiki. A team customises lint by editing schema.md, as it does the
 * workflows. A rule that guards trust may be raised, never turned off or lowered; a
 * question (a grounding sentence the check is unsure of) stays a question unless its rule is off.
 */

export type RuleSetting = Severity | 'off';

export const RULE_SETTINGS: readonly RuleSetting[] = ['off', 'question', 'warning', 'error'];

const RANK: Record<RuleSetting, number> = { off: 0, question: 1, warning: 2, error: 3 };

/** Why schema.md may not set `setting` for `id`, or undefined when it may. */
export function ruleSettingProblem(id: string, setting: RuleSetting): string | undefined {
  const rule = ruleById(id);
  if (!rule) return `no lint rule is called "${id}" (the rules: ${RULES.map((r) => r.id).join(', ')})`;
  if (rule.guardsTrust && RANK[setting] < RANK[rule.severity]) {
    return `lint rule "${id}" guards trust (${rule.description}): it may be raised, not ${setting === 'off' ? 'turned off' : `lowered to ${setting}`}`;
  }
  return undefined;
}

/** The findings as this wiki's settings have them: a rule turned off drops out, a changed severity replaces the default. */
export function applyRuleSettings(findings: readonly Finding[], settings: Readonly<Record<string, RuleSetting>> | undefined): Finding[] {
  if (!settings || Object.keys(settings).length === 0) return [...findings];
  const out: Finding[] = [];
  for (const f of findings) {
    const setting = settings[f.rule];
    if (setting === undefined) out.push(f);
    else if (setting === 'off') continue;
    else if (f.severity === 'question' && ruleById(f.rule)?.severity !== 'question') out.push(f);
    else out.push(setting === f.severity ? f : { ...f, severity: setting });
  }
  return out;
}
