import { defineRule } from '../rule.js';

export default defineRule({
  id: 'empty-page',
  severity: 'warning',
  description: 'the page has body text',
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
