import { defineRule } from '../rule.js';

export default defineRule({
  id: 'linked-folder',
  severity: 'warning',
  description: 'no folder under wiki/ is a link (its pages would be left out)',
  writeTime: false,
  fix: 'never',
  guardsTrust: true,
});
