import { defineRule } from '../rule.js';

export default defineRule({
  id: 'encoding',
  severity: 'error',
  description: 'every page is UTF-8',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
});
