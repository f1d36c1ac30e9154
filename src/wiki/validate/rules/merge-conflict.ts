import { defineRule } from '../rule.js';

export default defineRule({
  id: 'merge-conflict',
  severity: 'error',
  description: 'no page still holds git conflict markers',
  writeTime: false,
  fix: 'never',
  guardsTrust: true,
});
