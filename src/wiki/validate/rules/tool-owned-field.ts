import { defineRule } from '../rule.js';

export default defineRule({
  id: 'tool-owned-field',
  severity: 'error',
  description: 'a write leaves the fields only the tool sets (stale_since, archived_since) as they are',
  writeTime: true,
  fix: 'never',
  guardsTrust: true,
});
