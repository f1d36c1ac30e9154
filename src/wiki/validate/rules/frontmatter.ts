import { defineRule } from '../rule.js';

export default defineRule({
  id: 'frontmatter',
  severity: 'error',
  description: 'the frontmatter block parses as YAML',
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
