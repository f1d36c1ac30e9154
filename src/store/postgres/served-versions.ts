import { readPage } from '../../wiki/page-read.js';
import { contentHash } from '../../search/text/document.js';
import type { SearchOptions } from '../../search/types.js';

/**
 * Which hits a caller that checks access may be given: those whose row is the version it
 * judged — the version it serves (`servedVersion`), or else its checkout's file. A page
 * another replica changed since is never shown from its new text under its old judgement.
 */
export function admittedByVersion(options: SearchOptions, root: string, rowHash: (pagePath: string) => string | null | undefined): ((pagePath: string) => boolean) | undefined {
  const { servedVersion, readPage: judgedText } = options;
  if (servedVersion) return (pagePath) => servedVersion(pagePath) === rowHash(pagePath);
  if (!judgedText) return undefined;
  return (pagePath) => {
    const content = readPage(root, pagePath);
    return content !== undefined && contentHash(content) === rowHash(pagePath);
  };
}
