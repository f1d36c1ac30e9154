import { defineRule } from '../rule.js';

export default defineRule({
  id: 'oversized-repair',
  severity: 'warning',
  description: 'no repair of --fix would grow a page past twice its size',
  writeTime: false,
  fix: 'never',
  guardsTrust: false,
});
