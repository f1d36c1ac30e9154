import { defineRule } from '../rule.js';

export default defineRule({
  id: 'missing-source',
  severity: 'error',
  description: 'every `sources` entry is a file in the workspace',
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
