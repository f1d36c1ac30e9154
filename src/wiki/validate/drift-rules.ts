import { frontmatterDrift, type DriftChecks } from '../frontmatter-drift.js';
import type { Page } from '../page.js';
import { finding, type Finding } from './finding.js';

/**
 * A page whose frontmatter says less than its body: links missing from `refs`, cited files
 * missing from `sources`. The write tools keep pages in step, so this finds older pages and
 * hand edits; `wiki lint --fix` adds what is missing.
 */
export function frontmatterDriftFindings(page: Page, checks: DriftChecks): Finding[] {
  const drift = frontmatterDrift(page, checks);
  const findings: Finding[] = [];
  if (drift.refs.length > 0) {
    findings.push(
      finding('frontmatter-drift', page.path, `the body links to ${list(drift.refs.map((key) => `[[${key}]]`))}, not in \`refs\``, {
        fix: `add ${list(drift.refs)} to \`refs\` (\`wiki lint --fix\` does it)`,
      }),
    );
  }
  if (drift.sources.length > 0) {
    findings.push(
      finding('frontmatter-drift', page.path, `from-comments cite ${list(drift.sources)}, not in \`sources\``, {
        fix: `add ${list(drift.sources)} to \`sources\` (\`wiki lint --fix\` does it)`,
      }),
    );
  }
  return findings;
}

function list(items: readonly string[]): string {
  const shown = items.slice(0, 8).join(', ');
  return items.length > 8 ? `${shown} and ${items.length - 8} more` : shown;
}
