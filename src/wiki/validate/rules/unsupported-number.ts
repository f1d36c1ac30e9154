import { defineRule } from '../rule.js';

export default defineRule({
  id: 'unsupported-number',
  severity: 'warning',
  description: 'every number and date of a claim sentence is in its cited lines or its sources',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
  grounding: true,
});
