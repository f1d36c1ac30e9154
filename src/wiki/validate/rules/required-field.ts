import { defineRule } from '../rule.js';

export default defineRule({
  id: 'required-field',
  severity: 'error',
  description: 'a content page carries every field schema.md requires of its type',
  writeTime: true,
  fix: 'sometimes',
  guardsTrust: false,
});
