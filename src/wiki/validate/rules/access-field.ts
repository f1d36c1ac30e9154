import { defineRule } from '../rule.js';

export default defineRule({
  id: 'access-field',
  severity: 'error',
  description: 'usage_mode and visibility hold values schema.md declares',
  writeTime: true,
  fix: 'never',
  guardsTrust: true,
});
