import { defineRule } from '../rule.js';

export default defineRule({
  id: 'lang-field',
  severity: 'error',
  description: "a page's lang is a BCP 47 tag of a known language (de, fr, zh, ja, pt-BR)",
  writeTime: true,
  fix: 'never',
  guardsTrust: false,
});
