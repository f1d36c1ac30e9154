import { defineRule } from '../rule.js';

export default defineRule({
  id: 'unreadable-page',
  severity: 'error',
  description: 'every page is a file of its own under wiki/ (no link out of the workspace, no hard link)',
  writeTime: false,
  fix: 'never',
  guardsTrust: true,
});
