import { defineRule } from '../rule.js';

export default defineRule({
  id: 'dead-index-entry',
  severity: 'error',
  description: 'every index entry names a page that exists',
  writeTime: false,
  fix: 'always',
  guardsTrust: false,
});
