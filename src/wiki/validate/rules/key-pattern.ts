import { defineRule } from '../rule.js';

export default defineRule({
  id: 'key-pattern',
  severity: 'error',
  description: "a page's key (its file name) matches schema.md's key_pattern",
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
