import { defineRule } from '../rule.js';

export default defineRule({
  id: 'owner-field',
  severity: 'error',
  description: "a write leaves the owner's fields (usage_mode, visibility) as they are",
  writeTime: true,
  fix: 'never',
  guardsTrust: true,
});
