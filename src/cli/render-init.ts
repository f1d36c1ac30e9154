import type { InitResult } from '../operations/workspace/init.js';
import type { Colors } from './output.js';

/** A path as one shell word: printed steps must work when pasted, spaces and all. */
export function shellWord(text: string): string {
  return /^[\w./~+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * What `wiki init` prints. Every next step is a command that works as printed, in order,
 * from the folder `init` was run in (the `wiki` command on PATH, as the README installs it).
 */
export function renderInit(result: InitResult, dir: string, c: Colors, example = false): string {
  const lines = [`${c.green('Created')} a wiki workspace in ${result.root}`];
  for (const file of result.created) lines.push(`  + ${file}`);
  for (const file of result.overwritten) lines.push(`  ~ ${file} (overwritten)`);
  const steps = [
    ...(dir === '.' ? [] : [`cd ${shellWord(dir)}`]),
    'wiki status',
    ...(example ? ['wiki search "associative trail"', 'wiki lint', 'wiki graph                       # writes .wiki/graph.html'] : []),
    'export ANTHROPIC_API_KEY=…   # or OPENAI_API_KEY, or OPENAI_BASE_URL for a local server',
    'wiki ingest https://en.wikipedia.org/wiki/Memex   # or a file, or raw/ for every new source',
    'wiki query "what does the wiki say about …?"',
  ];
  lines.push('', 'Next steps:', ...steps.map((step) => `  ${step}`), '', 'schema.md says how the wiki is written; edit it to change that.');
  return lines.join('\n');
}
