import { defineRule } from '../rule.js';

export default defineRule({
  id: 'unindexed',
  severity: 'warning',
  description: 'the index catalog lists the page',
  writeTime: false,
  fix: 'always',
  guardsTrust: false,
});
