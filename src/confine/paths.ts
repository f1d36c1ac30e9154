import { SandboxError } from '../errors.js';

/**
 * Lexical checks on a path the model sent, before the file system is consulted. The model
 * is told why a path is refused and what it may send instead, so it can correct itself.
 */

const MAX_PATH_CHARS = 4096;
const MAX_PATH_SEGMENTS = 64;
const EXAMPLE = 'give a path relative to the workspace root with / separators, e.g. wiki/concepts/attention.md or raw/paper.md';

/**
 * Why no tool may touch `relative` (a canonical workspace-relative path), or undefined.
 * Checked: every segment against the built-in names and the bare `sandbox.deny` entries
 * (matched at any depth, as in .gitignore), the built-in credential paths of two segments
 * (`.docker/config.json`, `.config/gh`) at any depth, and the `sandbox.deny` entries
 * holding a `/` against the path from the workspace root (gitignore-style: `*` and `?`
 * within a segment, `**` across segments; a matched folder denies all it holds).
 */
export function deniedPathReason(relative: string, extraDeny: readonly string[] = []): string | undefined {
  const segments = relative === '' ? [] : relative.split('/');
  const bare = extraDeny.filter((pattern) => !isAnchoredPattern(pattern));
  for (const segment of segments) {
    const reason = deniedSegmentReason(segment, bare);
    if (reason) return reason;
  }
  const names = segments.map(comparableName);
  for (const secret of SECRET_PATHS) {
    for (let at = 0; at + secret.length <= names.length; at++) {
      if (secret.every((part, i) => names[at + i] === part)) return `${secret.join('/')} may hold credentials and is never readable`;
    }
  }
  for (const pattern of extraDeny) {
    if (!isAnchoredPattern(pattern)) continue;
    const glob = pathGlob(pattern);
    for (let depth = 1; depth <= names.length; depth++) {
      if (glob.test(names.slice(0, depth).join('/'))) return `${segments.slice(0, depth).join('/')} matches "${pattern}" in sandbox.deny (wiki.config.json) and is off limits`;
    }
  }
  return undefined;
}

/** Windows ignores trailing dots and spaces, and common file systems ignore case. */
function comparableName(segment: string): string {
  return segment.replace(/[. ]+$/, '').toLowerCase();
}

/** Folders and files no tool may touch, matched against every segment of a path (see deniedPathReason for whole paths). */
export function deniedSegmentReason(segment: string, extraDeny: readonly string[] = []): string | undefined {
  const name = comparableName(segment);
  if (name === '.wiki') return '.wiki/ holds the tool’s machine state and is off limits';
  if (name === '.git') return '.git/ is version-control state and is off limits';
  if (name.startsWith('.env')) return `${segment} may hold secrets (.env files are never readable)`;
  if (name === 'node_modules') return 'node_modules/ is not part of the wiki’s material';
  if (SECRET_NAMES.has(name) || SECRET_SUFFIXES.some((suffix) => name.endsWith(suffix)) || name.startsWith('id_rsa')) {
    return `${segment} may hold credentials and is never readable`;
  }
  const pattern = extraDeny.find((glob) => !isAnchoredPattern(glob) && segmentGlob(glob).test(name));
  if (pattern !== undefined) return `${segment} matches "${pattern}" in sandbox.deny (wiki.config.json) and is off limits`;
  return undefined;
}

const SECRET_NAMES = new Set(['.npmrc', '.netrc', '.pypirc', '.ssh', '.aws', '.git-credentials', '.gitconfig', '.pgpass', '.kube', '.vault-token', '.gnupg']);
const SECRET_SUFFIXES = ['.pem', '.key'];
/** Credential files named by a folder and a name, matched at any depth. */
const SECRET_PATHS = [
  ['.docker', 'config.json'],
  ['.config', 'gh'],
];

/** A sandbox.deny entry with a `/` other than a trailing one names a path from the workspace root. */
function isAnchoredPattern(pattern: string): boolean {
  return pattern.replace(/\/+$/, '').includes('/');
}

/** An anchored sandbox.deny entry as a RegExp over a lower-case path: `*`, `?` within a segment, `**` across segments. */
function pathGlob(pattern: string): RegExp {
  const cached = globCache.get(`/${pattern}`);
  if (cached) return cached;
  const parts = pattern.replace(/^\/+/, '').replace(/\/+$/, '').toLowerCase().split('/').filter((part) => part !== '');
  let source = '';
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (part === '**') {
      // `a/**` is the folder a and all it holds; `**/b` and `a/**/b` any depth, none included.
      source += last ? (i === 0 ? '.*' : '(?:/.*)?') : i === 0 ? '(?:.*/)?' : '(?:/.*)?/';
      return;
    }
    if (i > 0 && parts[i - 1] !== '**') source += '/';
    source += part
      .split('')
      .map((char) => (char === '*' ? '[^/]*' : char === '?' ? '[^/]' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
      .join('');
  });
  const compiled = new RegExp(`^${source}$`, 's');
  globCache.set(`/${pattern}`, compiled);
  return compiled;
}

/** A sandbox.deny entry (`*` and `?` wildcards, matched against one path segment, any case) as a RegExp. */
function segmentGlob(glob: string): RegExp {
  const cached = globCache.get(glob);
  if (cached) return cached;
  const source = glob
    .replace(/[/]+$/, '')
    .toLowerCase()
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  const compiled = new RegExp(`^${source}$`, 's');
  globCache.set(glob, compiled);
  return compiled;
}
const globCache = new Map<string, RegExp>();

/**
 * Turn the model's path into canonical workspace-relative form (`a/b/c`, `''` for the root),
 * or throw SandboxError. `.` segments and repeated slashes are dropped; anything that could
 * name a location outside the root is refused rather than repaired.
 */
export function normalizeWorkspacePath(input: string): string {
  if (typeof input !== 'string') throw new SandboxError('path must be a string; ' + EXAMPLE);
  if (input.trim() === '') throw new SandboxError(`path is empty; ${EXAMPLE} (use "." for the workspace root)`);
  if (/[\u0000-\u001f\u007f]/.test(input)) {
    throw new SandboxError(`path ${JSON.stringify(input)} contains control characters (NUL, newline…); ${EXAMPLE}`);
  }
  if (input.includes('\\')) {
    throw new SandboxError(`path ${JSON.stringify(input)} uses backslashes; ${EXAMPLE}`);
  }
  if (input.startsWith('/') || /^[A-Za-z]:/.test(input)) {
    throw new SandboxError(`absolute paths are not allowed (${JSON.stringify(input)}); ${EXAMPLE}`);
  }
  if (input.startsWith('~')) {
    throw new SandboxError(`home-directory paths are not allowed (${JSON.stringify(input)}); ${EXAMPLE}`);
  }
  if (process.platform === 'win32' && input.includes(':')) {
    throw new SandboxError(`path ${JSON.stringify(input)} contains ':', which Windows reads as a drive or stream; ${EXAMPLE}`);
  }
  if (input.length > MAX_PATH_CHARS) {
    throw new SandboxError(`path is ${input.length} characters long, over the ${MAX_PATH_CHARS} allowed; ${EXAMPLE}`);
  }
  const segments = input.split('/').filter((s) => s !== '' && s !== '.');
  // Resolving and explaining a missing path costs work per folder level; no real page is this deep.
  if (segments.length > MAX_PATH_SEGMENTS) {
    throw new SandboxError(`path has ${segments.length} folder levels, over the ${MAX_PATH_SEGMENTS} allowed; ${EXAMPLE}`);
  }
  for (const segment of segments) {
    if (isParentSegment(segment)) {
      throw new SandboxError(`".." is not allowed in paths (${JSON.stringify(input)}); ${EXAMPLE}`);
    }
    const decoded = percentDecoded(segment);
    if (decoded !== segment && (isParentSegment(decoded) || /[/\\\u0000]/.test(decoded))) {
      throw new SandboxError(`path ${JSON.stringify(input)} hides "..", a separator or NUL in %-escapes; ${EXAMPLE}`);
    }
  }
  return segments.join('/');
}

function isParentSegment(segment: string): boolean {
  // Full-width and other compatibility forms of "." fold to "." under NFKC, and Windows
  // drops trailing dots and spaces, so "..", ". . " and "．．" all name the parent there.
  return /^\.\.[. ]*$/.test(segment.normalize('NFKC'));
}

function percentDecoded(segment: string): string {
  if (!segment.includes('%')) return segment;
  let current = segment;
  // Decode repeatedly so double-encoding (%252e) is seen too; stop when stable or invalid.
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

export const PATH_EXAMPLE = EXAMPLE;

