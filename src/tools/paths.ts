import { SandboxError } from '../errors.js';

/**
 * Lexical checks on a path the model sent, before the file system is consulted. The model
 * is told why a path is refused and what it may send instead, so it can correct itself.
 */

const MAX_PATH_CHARS = 4096;
const MAX_PATH_SEGMENTS = 64;
const EXAMPLE = 'give a path relative to the workspace root with / separators, e.g. wiki/concepts/attention.md or raw/paper.md';

/** Folders and files no tool may touch, matched against every segment of a path. */
export function deniedSegmentReason(segment: string, extraDeny: readonly string[] = []): string | undefined {
  // Windows ignores trailing dots and spaces, and common file systems ignore case.
  const name = segment.replace(/[. ]+$/, '').toLowerCase();
  if (name === '.wiki') return '.wiki/ holds the tool’s machine state and is off limits';
  if (name === '.git') return '.git/ is version-control state and is off limits';
  if (name.startsWith('.env')) return `${segment} may hold secrets (.env files are never readable)`;
  if (name === 'node_modules') return 'node_modules/ is not part of the wiki’s material';
  if (SECRET_NAMES.has(name) || SECRET_SUFFIXES.some((suffix) => name.endsWith(suffix)) || name.startsWith('id_rsa')) {
    return `${segment} may hold credentials and is never readable`;
  }
  const pattern = extraDeny.find((glob) => segmentGlob(glob).test(name));
  if (pattern !== undefined) return `${segment} matches "${pattern}" in sandbox.deny (wiki.config.json) and is off limits`;
  return undefined;
}

const SECRET_NAMES = new Set(['.npmrc', '.netrc', '.pypirc', '.ssh', '.aws']);
const SECRET_SUFFIXES = ['.pem', '.key'];

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

