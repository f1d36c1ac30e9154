import { defineRule } from '../rule.js';

export default defineRule({
  id: 'bad-citation',
  severity: 'error',
  description: 'each `<!-- from: … -->` comment names a file and lines that exist',
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
