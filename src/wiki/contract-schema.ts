import { z } from 'zod';
import { RULE_SETTINGS, ruleSettingProblem, type RuleSetting } from './validate/rule-settings.js';

/**
 * The validation schema of the page contract (see contract.ts), apart from the contract's
 * types and helpers: those are read by every command, the schema library only when
 * schema.md has to be validated (see config/settings.ts).
 */
export const pageTypeSchema = z.object({
  folder: z
    .string()
    .regex(/^wiki\/[a-z0-9][a-z0-9_-]*$/, 'must be a folder directly under wiki/, e.g. wiki/concepts'),
  required: z.array(z.string().min(1)).default([]),
  description: z.string().optional(),
});

/**
 * The ordered visibility levels pages may carry (`visibility:`), least restricted first.
 * `wiki mcp --max-visibility` serves pages up to a level; a page without a known level
 * counts as `default`.
 */
export const visibilitySchema = z
  .object({
    levels: z.array(z.string().regex(/^[a-z][a-z0-9-]*$/, 'levels are lowercase words')).min(1).default(['public', 'internal', 'private']),
    default: z.string().default('public'),
  })
  .refine((visibility) => visibility.levels.includes(visibility.default), 'default must be one of the levels')
  .refine((visibility) => new Set(visibility.levels).size === visibility.levels.length, 'levels must not repeat')
  .prefault({});

export const contractSchema = z.object({
  version: z.literal(1),
  key_pattern: z
    .string()
    .refine((pattern) => {
      try {
        new RegExp(pattern);
        return true;
      } catch {
        return false;
      }
    }, 'must be a valid regular expression'),
  index: z.string().regex(/^wiki\/.+\.md$/, 'must be a .md file under wiki/'),
  log: z.string().regex(/^wiki\/.+\.md$/, 'must be a .md file under wiki/'),
  required: z.array(z.string().min(1)).default(['title', 'summary']),
  types: z
    .record(z.string().regex(/^[a-z][a-z0-9-]*$/, 'type names are lowercase words'), pageTypeSchema)
    .refine((types) => Object.keys(types).length > 0, 'at least one page type is needed'),
  visibility: visibilitySchema,
  /** Per lint rule id: `off`, or the severity its findings carry in this wiki (validate/rule-settings.ts). */
  lint: z
    .record(z.string(), z.enum(RULE_SETTINGS as [RuleSetting, ...RuleSetting[]], { error: `must be one of ${RULE_SETTINGS.join(', ')}` }))
    .superRefine((settings, ctx) => {
      for (const [id, setting] of Object.entries(settings)) {
        const problem = ruleSettingProblem(id, setting);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [id] });
      }
    })
    .optional(),
});
