/** One page as the index keeps it: what a result shows and what change detection needs. */
export interface DocRecord {
  slot: number;
  path: string;
  key: string;
  title: string;
  summary: string;
  tags: string[];
  links: string[];
  hash: string;
  /** As in PageDocument: false for a page never surfaced. */
  surfaced: boolean;
  /** As in PageDocument: the language the page was analysed in. */
  lang: string;
  mtimeMs: number;
  size: number;
  /** When the content was last read and hashed (ms since epoch). */
  seenAt: number;
}

export type PageStat = Pick<DocRecord, 'mtimeMs' | 'size'>;
export type PageStamp = Pick<DocRecord, 'mtimeMs' | 'size' | 'seenAt'>;
