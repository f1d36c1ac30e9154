import { UNTYPED } from './build.js';

/**
 * Colours distinguishable with the common colour-vision deficiencies (Okabe–Ito), so the
 * legend stays readable for everyone; grey is kept for pages without a type.
 */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#7F3C8D'] as const;
const UNTYPED_COLOR = '#9A9A9A';

/** Colour per type, assigned in legend order; the same mapping is used by every renderer. */
export function typeColors(types: readonly string[]): Record<string, string> {
  const colors: Record<string, string> = {};
  let next = 0;
  for (const type of types) {
    if (type === UNTYPED) {
      colors[type] = UNTYPED_COLOR;
      continue;
    }
    colors[type] = PALETTE[next % PALETTE.length] ?? UNTYPED_COLOR;
    next++;
  }
  return colors;
}

export function colorFor(colors: Record<string, string>, type: string): string {
  return colors[type] ?? UNTYPED_COLOR;
}
