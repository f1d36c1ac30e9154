import { scopeOf, USAGE_MODES, visibilityLevels } from '../access.js';
import type { Contract } from '../contract.js';
import type { Page } from '../page.js';
import { finding, type Finding } from './finding.js';

/**
 * `usage_mode` and `visibility` must be values the tool knows: a misspelt `never` would
 * surface a page its owner meant to hide, a misspelt `private` would serve it at the
 * default level. A page in wiki/user/ must sit in a user's folder.
 */
export function accessFieldFindings(page: Page, contract: Contract): Finding[] {
  const findings: Finding[] = [];
  const mode = page.frontmatter.usage_mode;
  if (mode !== undefined && !(typeof mode === 'string' && (USAGE_MODES as readonly string[]).includes(mode))) {
    findings.push(
      finding('access-field', page.path, `usage_mode ${JSON.stringify(mode)} is not one of ${USAGE_MODES.join(', ')}`, {
        fix: 'set usage_mode to always, auto (the default) or never',
      }),
    );
  }
  const level = page.frontmatter.visibility;
  const { levels } = visibilityLevels(contract);
  if (level !== undefined && !(typeof level === 'string' && levels.includes(level))) {
    findings.push(
      finding('access-field', page.path, `visibility ${JSON.stringify(level)} is not a level of this wiki (${levels.join(', ')})`, {
        fix: `set visibility to one of ${levels.join(', ')} (schema.md declares them); until then it counts as the most restrictive level`,
      }),
    );
  }
  if (page.path.startsWith('wiki/user/') && scopeOf(page.path) === undefined) {
    findings.push(
      finding('access-field', page.path, 'a page directly in wiki/user/ belongs to no user', {
        fix: 'move it into wiki/user/<name>/ (a scratch page) or into the team\'s folders',
      }),
    );
  }
  return findings;
}
