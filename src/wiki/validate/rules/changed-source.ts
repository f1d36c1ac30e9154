import { defineRule } from '../rule.js';

export default defineRule({
  id: 'changed-source',
  severity: 'warning',
  description: 'no raw source changed since its last ingest: its citations still number the ingested lines (`wiki lint --fix` moves them), or its new lines wait for a model (`wiki ingest`)',
  writeTime: false,
  fix: 'sometimes',
  guardsTrust: false,
});
