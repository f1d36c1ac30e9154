import { defineRule } from '../rule.js';

export default defineRule({
  id: 'stale-page',
  severity: 'warning',
  description: 'no page is marked stale since a source it draws on changed',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
});
