import { defineRule } from '../rule.js';

export default defineRule({
  id: 'dropped-source',
  severity: 'error',
  description: 'an update keeps every source the page listed',
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
