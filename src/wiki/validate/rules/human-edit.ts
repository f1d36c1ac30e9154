import { defineRule } from '../rule.js';

export default defineRule({
  id: 'human-edit',
  severity: 'error',
  description: 'a rewrite keeps the lines and fields a person wrote',
  writeTime: true,
  fix: 'never',
  guardsTrust: true,
});
