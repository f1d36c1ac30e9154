/**
 * The generated part of index.md lives between two marker comments; everything outside
 * them belongs to people and is kept byte for byte.
 */
export const CATALOG_START = '<!-- wiki:catalog:start -->';
export const CATALOG_END = '<!-- wiki:catalog:end -->';

export interface CatalogRegion {
  /** Offset just after the start marker. */
  start: number;
  /** Offset of the end marker. */
  end: number;
}

/**
 * Where the catalog sits: after the last start marker, up to the first end marker that
 * follows it. Taking the last start means a stray marker a person left above a later
 * (appended) pair never makes us overwrite their text in between.
 */
export function findCatalogRegion(text: string): CatalogRegion | undefined {
  const startMarker = text.lastIndexOf(CATALOG_START);
  if (startMarker < 0) return undefined;
  const start = startMarker + CATALOG_START.length;
  const end = text.indexOf(CATALOG_END, start);
  if (end < 0) return undefined;
  return { start, end };
}

/** 1-based line of the first character of the region, for mapping catalog lines to file lines. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Put `catalog` between the markers, keeping all other text as it is. Without a complete
 * pair of markers, a fresh pair holding the catalog is appended at the end.
 */
export function replaceCatalog(text: string, catalog: string): string {
  const region = findCatalogRegion(text);
  if (region) return `${text.slice(0, region.start)}${catalog}${text.slice(region.end)}`;
  const lead = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return `${text}${lead}${CATALOG_START}${catalog}${CATALOG_END}\n`;
}
