import { defineRule } from '../rule.js';

export default defineRule({
  id: 'miscited',
  severity: 'warning',
  description: "a claim sentence's cited lines are about what it says",
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
  grounding: true,
});
