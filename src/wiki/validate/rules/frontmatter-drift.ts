import { defineRule } from '../rule.js';

export default defineRule({
  id: 'frontmatter-drift',
  severity: 'warning',
  description: 'refs and sources list what the body links to and cites',
  writeTime: false,
  fix: 'always',
  guardsTrust: false,
});
