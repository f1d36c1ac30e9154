import { defineRule } from '../rule.js';

export default defineRule({
  id: 'near-duplicate',
  severity: 'warning',
  description: "no other page's key or title is nearly the same",
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
