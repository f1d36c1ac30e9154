import { readingEachOnce } from '../search/live/read-page.js';
import { splitFrontmatter } from '../wiki/frontmatter-split.js';
import { servedBody } from '../wiki/served-pages.js';
import type { ServedPages } from '../wiki/served-pages.js';

/**
 * A page's text (`textAt`: the version served, file or database row) as the caller may see it, for search to read its snippets and phrases
 * from: nothing of a page it may not see, and a page it may see without the lines that
 * link to a withheld page (as `read_page` serves it). Judged on the page's lines, not on a
 * snippet's words: a `[[secret-plan|the acquisition]]` reads as its label in a snippet,
 * where a filter looking for the key finds nothing.
 */
export function servedReader(textAt: (pagePath: string) => string | undefined, served: ServedPages): (pagePath: string) => string | undefined {
  return readingEachOnce((pagePath) => {
    const page = served.servedAt(pagePath);
    if (!page) return undefined;
    const text = textAt(pagePath);
    if (text === undefined) return undefined;
    const body = servedBody(page, served);
    if (body === page.body) return text;
    const { yaml } = splitFrontmatter(text);
    return yaml === undefined ? body : `---\n${yaml}\n---\n${body}`;
  });
}
