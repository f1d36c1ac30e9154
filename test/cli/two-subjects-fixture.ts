import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freshWorkspace, pageText } from './cron-fixtures.js';

/**
 * A small wiki on two unrelated subjects, as the played run's: Go workspaces (how a module
 * version is chosen) and Rust's let-else (what happens when a pattern does not match). The
 * Rust pages say "pattern", "match", "let" and "else" often; the Go pages say "workspace",
 * "module" and "version".
 */
export const TWO_SUBJECT_PAGES: Record<string, string> = {
  'raw/go-workspaces.md': '# Go workspaces\n\nA go.work file lists modules; MVS picks versions.\n',
  'raw/rust-let-else.md': '# let-else\n\nlet PATTERN = EXPR else { diverge };\n',
  'wiki/concepts/go-workspace.md': pageText('concept', 'go-workspace', {
    title: 'Go workspace (go.work)',
    summary: 'A go.work file that lists local modules to build together as main modules, with one build list for all of them.',
    refs: ['minimal-version-selection', 'replace-directive'],
    sources: ['raw/go-workspaces.md'],
    body:
      'A Go workspace is declared by a go.work file whose use directives list module directories. Every listed module is a main module.\n\n' +
      'Which version of a dependency is used comes from [[minimal-version-selection]] over all the workspace modules together; a replace in go.work overrides the modules\' own ([[replace-directive]]).',
  }),
  'wiki/concepts/minimal-version-selection.md': pageText('concept', 'minimal-version-selection', {
    title: 'Minimal version selection (MVS)',
    summary: 'The algorithm the go command uses to pick each module version, the highest version any module in the build requires.',
    refs: ['go-workspace'],
    sources: ['raw/go-workspaces.md'],
    body: 'MVS selects, for each module, the maximum of the minimum versions required by the main modules and their dependencies. In a [[go-workspace]] it runs over all workspace modules at once.',
  }),
  'wiki/concepts/replace-directive.md': pageText('concept', 'replace-directive', {
    title: 'Replace directive',
    summary: 'The go.mod and go.work directive that substitutes another version or a local directory for a module.',
    refs: ['go-workspace'],
    sources: ['raw/go-workspaces.md'],
    body: 'A replace directive in go.work wins over the replaces of the workspace modules; conflicting module replaces are an error ([[go-workspace]]).',
  }),
  'wiki/concepts/let-else.md': pageText('concept', 'let-else', {
    title: 'let-else statement',
    summary: "Rust's refutable let statement, let PATTERN = EXPR else { diverge }, which binds on a match and must leave the scope when the pattern does not match.",
    refs: ['refutable-pattern', 'never-type', 'if-let'],
    sources: ['raw/rust-let-else.md'],
    body:
      'let-else takes a [[refutable-pattern]]. When the pattern matches, its bindings enter the surrounding scope; when the pattern does not match, the else block runs and must diverge ([[never-type]]).\n\n' +
      'It is to [[if-let]] what else is to if: a let whose pattern may not match, handled by an else that returns, breaks or panics.',
  }),
  'wiki/concepts/refutable-pattern.md': pageText('concept', 'refutable-pattern', {
    title: 'Refutable and irrefutable patterns',
    summary: 'In Rust a refutable pattern can fail to match a value; plain let needs an irrefutable pattern, if-let and let-else take refutable ones.',
    refs: ['let-else', 'if-let'],
    sources: ['raw/rust-let-else.md'],
    body: 'A pattern that may not match (Some(x), Ok(v)) is refutable. Rust lets a refutable pattern stand in if-let, while-let, match arms and [[let-else]]; a plain let pattern must always match ([[if-let]]).',
  }),
  'wiki/concepts/if-let.md': pageText('concept', 'if-let', {
    title: 'if-let expression',
    summary: "Rust's if-let, which runs a block only when a value matches one refutable pattern, else the else branch.",
    refs: ['refutable-pattern', 'let-else'],
    sources: ['raw/rust-let-else.md'],
    body: 'if let PATTERN = EXPR { … } else { … } matches a value against one [[refutable-pattern]]; the bindings live in the if block only, unlike [[let-else]].',
  }),
  'wiki/concepts/never-type.md': pageText('concept', 'never-type', {
    title: 'Never type (!)',
    summary: "Rust's type of expressions that diverge (return, break, continue, panic), which the else block of let-else must have.",
    refs: ['let-else'],
    sources: ['raw/rust-let-else.md'],
    body: 'The else block of a [[let-else]] must diverge: its type is the never type !, so code after a pattern that does not match cannot run.',
  }),
};

export async function twoSubjectWorkspace(): Promise<string> {
  const root = await freshWorkspace();
  for (const [file, text] of Object.entries(TWO_SUBJECT_PAGES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

/** The played run's two-subject question (run B). */
export const TWO_SUBJECT_QUESTION =
  "How does a Go workspace decide which module version is used, and how does that compare with how Rust's let-else handles a pattern that does not match?";
