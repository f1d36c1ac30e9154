/**
 * One lint rule, described once: its id (fixed — tests, scripts and `--json` users rely on
 * it), the severity its findings carry unless schema.md's `lint:` map changes it, what it
 * checks, whether a write is checked against it, and what `wiki lint --fix` can do about
 * it. The registry (rules/index.ts) lists every rule; the severity map, the rules checked
 * at write time, the grounding rules and the tests' list of rules are read from it.
 */

export type Severity = 'error' | 'warning' | 'question';

export interface RuleDefinition<Id extends string = string> {
  id: Id;
  /** The severity of its findings when schema.md does not set one. */
  severity: Severity;
  /** What it checks, in one sentence (help and docs read it). */
  description: string;
  /** Checked on every page write as well as by `wiki lint` (a write with an error finding is refused). */
  writeTime: boolean;
  /** What `wiki lint --fix`'s rule repairs do: settle every finding, some (`sometimes`), or none (a model or a person has to). */
  fix: 'always' | 'sometimes' | 'never';
  /**
   * It guards trust (who sees a page, what a person wrote, what only the tool sets, what
   * leaves the workspace, a merge left half done): schema.md may raise it, never turn it
   * off or lower it.
   */
  guardsTrust: boolean;
  /** A grounding rule: a claim sentence checked against what it cites; may be a question; a review may keep it with a reason. */
  grounding?: boolean;
}

/** Keeps the id's literal type, so the registry can name its ids as a type. */
export function defineRule<const Id extends string>(rule: RuleDefinition<Id>): RuleDefinition<Id> {
  return rule;
}
