import { defineRule } from '../rule.js';

export default defineRule({
  id: 'broken-link',
  severity: 'error',
  description: 'every [[link]] and refs entry names a page that exists',
  writeTime: true,
  fix: 'sometimes',
  guardsTrust: false,
});
