import type { Page } from '../page.js';
import { finding, type Finding } from './finding.js';

/**
 * A page still holding git's conflict markers (`<<<<<<< ours` … `>>>>>>> theirs`) after a
 * merge: both versions are in it and neither is what anyone wrote. `=======` alone is not
 * looked for — it is also markdown's heading underline.
 */
const MARKER = /^(<{7}|>{7})(?: |$)/;

export function conflictMarkerFindings(page: Page): Finding[] {
  const lines = page.body.split('\n');
  const at = lines.findIndex((line) => MARKER.test(line));
  if (at < 0) return [];
  return [
    finding('merge-conflict', page.path, 'the page still holds git conflict markers from a merge', {
      line: page.bodyLine + at,
      fix: 'resolve the conflict: keep the text that should stay, remove the <<<<<<< ======= >>>>>>> lines, then `wiki lint`',
    }),
  ];
}
