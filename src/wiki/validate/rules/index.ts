import frontmatter from './frontmatter.js';
import requiredField from './required-field.js';
import keyPattern from './key-pattern.js';
import duplicateKey from './duplicate-key.js';
import brokenLink from './broken-link.js';
import orphan from './orphan.js';
import unindexed from './unindexed.js';
import deadIndexEntry from './dead-index-entry.js';
import missingSource from './missing-source.js';
import noSources from './no-sources.js';
import emptyPage from './empty-page.js';
import nearDuplicate from './near-duplicate.js';
import logFormat from './log-format.js';
import logEntry from './log-entry.js';
import badCitation from './bad-citation.js';
import toolOwnedField from './tool-owned-field.js';
import ownerField from './owner-field.js';
import droppedSource from './dropped-source.js';
import humanEdit from './human-edit.js';
import accessField from './access-field.js';
import ungrounded from './ungrounded.js';
import unsupportedNumber from './unsupported-number.js';
import miscited from './miscited.js';
import stalePage from './stale-page.js';
import staleClaim from './stale-claim.js';
import changedSource from './changed-source.js';
import sourceRecord from './source-record.js';
import encoding from './encoding.js';
import unreadablePage from './unreadable-page.js';
import linkedFolder from './linked-folder.js';
import oversizedRepair from './oversized-repair.js';
import lowCoverage from './low-coverage.js';
import frontmatterDrift from './frontmatter-drift.js';
import mergeConflict from './merge-conflict.js';
import langField from './lang-field.js';
import type { RuleDefinition } from '../rule.js';

/**
 * Every lint rule, one file each (ESLint style): a new rule is its file and its line here.
 * The severity map, the rules checked at write time, the grounding rules and schema.md's
 * `lint:` settings are all read from this list.
 */
export const RULES = [
  frontmatter,
  requiredField,
  keyPattern,
  duplicateKey,
  brokenLink,
  orphan,
  unindexed,
  deadIndexEntry,
  missingSource,
  noSources,
  emptyPage,
  nearDuplicate,
  logFormat,
  logEntry,
  badCitation,
  toolOwnedField,
  ownerField,
  droppedSource,
  humanEdit,
  accessField,
  ungrounded,
  unsupportedNumber,
  miscited,
  stalePage,
  staleClaim,
  changedSource,
  sourceRecord,
  encoding,
  unreadablePage,
  linkedFolder,
  oversizedRepair,
  lowCoverage,
  frontmatterDrift,
  mergeConflict,
  langField,
] as const;

export type RuleId = (typeof RULES)[number]['id'];

const BY_ID: ReadonlyMap<string, RuleDefinition> = new Map(RULES.map((rule) => [rule.id, rule]));

/** The rule of an id; undefined for an id no rule has (a model's `llm-` finding, a typo in schema.md). */
export function ruleById(id: string): RuleDefinition | undefined {
  return BY_ID.get(id);
}

/** The ids of the grounding rules (`ungrounded`, `unsupported-number`, `miscited`). */
export const GROUNDING_RULES: ReadonlySet<string> = new Set(RULES.filter((rule: RuleDefinition) => rule.grounding === true).map((rule) => rule.id));
