import { defineRule } from '../rule.js';

export default defineRule({
  id: 'duplicate-key',
  severity: 'error',
  description: 'no two pages in one scope share a key',
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
