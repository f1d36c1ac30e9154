import { defineRule } from '../rule.js';

export default defineRule({
  id: 'low-coverage',
  severity: 'warning',
  description: "a raw source's lines are cited by line range above coverage.warnBelow",
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
});
