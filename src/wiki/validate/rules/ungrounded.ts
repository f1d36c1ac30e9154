import { defineRule } from '../rule.js';

export default defineRule({
  id: 'ungrounded',
  severity: 'warning',
  description: 'a claim sentence says what its cited lines or its sources say (names, terms, denials)',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
  grounding: true,
});
