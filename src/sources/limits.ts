/**
 * What reading one source may cost. A hostile source is small on disk and huge to read: a
 * few KB of nested `<div>`s make the HTML reader quadratic (and past a few thousand levels
 * overflow the stack), a 1.5 MB PDF may inflate to gigabytes or claim a million pages.
 * Past a bound the source is refused with a reason (InputError), before the costly work,
 * and the other sources go on. Settings under `limits` in wiki.config.json.
 */
export interface SourceLimits {
  /** Deepest element nesting an HTML source may have. */
  htmlDepth: number;
  /** Bytes a PDF's compressed streams may inflate to, all together (images aside). */
  pdfInflatedBytes: number;
  /** Pages a PDF may have. */
  pdfPages: number;
}

export const DEFAULT_SOURCE_LIMITS: SourceLimits = { htmlDepth: 256, pdfInflatedBytes: 256 * 1024 * 1024, pdfPages: 2000 };

/** The source limits of a config's `limits` section. */
export function sourceLimitsOf(limits: SourceLimits): SourceLimits {
  return { htmlDepth: limits.htmlDepth, pdfInflatedBytes: limits.pdfInflatedBytes, pdfPages: limits.pdfPages };
}
