/**
 * `read`, each page read at most once: a search reads a result page for several things
 * (a phrase or exclusion check, its snippet, who may see it) and one read serves them all.
 */
export function readingEachOnce(read: (pagePath: string) => string | undefined): (pagePath: string) => string | undefined {
  const texts = new Map<string, string | undefined>();
  return (pagePath) => {
    if (!texts.has(pagePath)) texts.set(pagePath, read(pagePath));
    return texts.get(pagePath);
  };
}

/** What the user is told, once, about pages search leaves out because they are hard links. */
export function hardLinkedPagesNotice(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
  return `${paths.length} page(s) not searched because each is a hard link (its content may belong to a file outside the wiki): ${shown}; copy the file into wiki/ instead of linking it`;
}
