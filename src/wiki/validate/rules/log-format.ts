import { defineRule } from '../rule.js';

export default defineRule({
  id: 'log-format',
  severity: 'warning',
  description: 'log.md exists and each of its headings is a `## [YYYY-MM-DD] op | title` entry',
  writeTime: false,
  fix: 'sometimes',
  guardsTrust: false,
});
