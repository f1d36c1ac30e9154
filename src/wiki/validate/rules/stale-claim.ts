import { defineRule } from '../rule.js';

export default defineRule({
  id: 'stale-claim',
  severity: 'warning',
  description: 'no sentence cites source lines that changed since the page was written (settled when rewritten, re-cited or removed)',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
});
