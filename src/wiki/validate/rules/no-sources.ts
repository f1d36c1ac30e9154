import { defineRule } from '../rule.js';

export default defineRule({
  id: 'no-sources',
  severity: 'error',
  description: 'a page whose type requires sources lists some',
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
