import { defineRule } from '../rule.js';

export default defineRule({
  id: 'source-record',
  severity: 'error',
  description: 'wiki.sources.jsonl names as a source\'s pages only page files of a page folder (never log.md, index.md or a hub spoke)',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
});
