import { defineRule } from '../rule.js';

export default defineRule({
  id: 'orphan',
  severity: 'warning',
  description: 'some other content page links to the page (the index does not count)',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
});
