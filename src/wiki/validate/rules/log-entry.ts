import { defineRule } from '../rule.js';

export default defineRule({
  id: 'log-entry',
  severity: 'warning',
  description: 'each log entry was written by wiki (a run it recorded)',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
});
