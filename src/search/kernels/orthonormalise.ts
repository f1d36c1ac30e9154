/**
 * Orthonormalisation of a dense block's columns for the built-in embedder's training
 * (see linalg.ts for the block layout).
 */
/**
 * Orthonormalise the columns of a `rows × width` block in place (modified Gram-Schmidt,
 * applied twice for stability). A column that collapses to zero is left at zero. Works
 * on a column-major copy so every dot product runs over contiguous memory.
 *
 * Column j is, in turn for every earlier column i: d = Σ_r cᵢ[r] × cⱼ[r] (from zero, r
 * ascending), then, unless d is zero, cⱼ[r] −= d × cᵢ[r]; then scaled to unit length.
 * Each such sum is one long chain of dependent additions, so the work goes four columns
 * at a time: their projections on the columns before the four are independent, and run
 * side by side in one sweep (four chains at once) with the same operations per column
 * in the same order, so results are those of one column after another, to the last bit.
 */
export function orthonormalise(x: Float64Array, rows: number, width: number): void {
  const columns = new Float64Array(rows * width);
  for (let r = 0; r < rows; r++) for (let j = 0; j < width; j++) columns[j * rows + r] = x[r * width + j]!;
  for (let pass = 0; pass < 2; pass++) {
    for (let first = 0; first < width; first += 4) {
      const end = Math.min(first + 4, width);
      if (end - first === 4) projectFour(columns, rows, first);
      else for (let j = first; j < end; j++) project(columns, rows, j, 0, first);
      for (let j = first; j < end; j++) {
        project(columns, rows, j, first, j);
        normalise(columns, rows, j);
      }
    }
  }
  for (let r = 0; r < rows; r++) for (let j = 0; j < width; j++) x[r * width + j] = columns[j * rows + r]!;
}

/** Σ_r cᵢ[r] × cⱼ[r], from zero, r ascending. */
function columnDot(columns: Float64Array, rows: number, i: number, j: number): number {
  const ci = i * rows;
  const cj = j * rows;
  let dot = 0;
  for (let r = 0; r < rows; r++) dot += columns[ci + r]! * columns[cj + r]!;
  return dot;
}

/**
 * Column j's steps for the finished columns from … to − 1. Each step subtracts column i's
 * projection and, in the same sweep, forms the dot product with column i + 1 from the
 * updated values: the arithmetic of the plain two-loop form, in the same order, with
 * half the passes over the column.
 */
function project(columns: Float64Array, rows: number, j: number, from: number, to: number): void {
  if (from >= to) return;
  const cj = j * rows;
  let dot = columnDot(columns, rows, from, j);
  for (let i = from; i < to; i++) dot = step(columns, rows, cj, i, dot, i + 1 < to);
}

/** One step of column cj (an offset) on column i with its dot product; returns the next one, or 0 without `withNext`. */
function step(columns: Float64Array, rows: number, cj: number, i: number, dot: number, withNext: boolean): number {
  const ci = i * rows;
  const cn = ci + rows;
  let next = 0;
  if (dot === 0) {
    if (withNext) for (let r = 0; r < rows; r++) next += columns[cn + r]! * columns[cj + r]!;
  } else if (!withNext) {
    for (let r = 0; r < rows; r++) columns[cj + r]! -= dot * columns[ci + r]!;
  } else {
    for (let r = 0; r < rows; r++) {
      const updated = columns[cj + r]! - dot * columns[ci + r]!;
      columns[cj + r] = updated;
      next += columns[cn + r]! * updated;
    }
  }
  return next;
}

/**
 * The steps of columns first … first + 3 for the finished columns 0 … first − 1, side by
 * side. A step where one of the four dot products is zero (that column skips it) goes
 * column by column instead.
 */
function projectFour(columns: Float64Array, rows: number, first: number): void {
  if (first === 0) return;
  const c0 = first * rows;
  const c1 = c0 + rows;
  const c2 = c1 + rows;
  const c3 = c2 + rows;
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  for (let r = 0; r < rows; r++) {
    const v = columns[r]!;
    d0 += v * columns[c0 + r]!;
    d1 += v * columns[c1 + r]!;
    d2 += v * columns[c2 + r]!;
    d3 += v * columns[c3 + r]!;
  }
  for (let i = 0; i < first; i++) {
    const withNext = i + 1 < first;
    if (d0 === 0 || d1 === 0 || d2 === 0 || d3 === 0 || !withNext) {
      d0 = step(columns, rows, c0, i, d0, withNext);
      d1 = step(columns, rows, c1, i, d1, withNext);
      d2 = step(columns, rows, c2, i, d2, withNext);
      d3 = step(columns, rows, c3, i, d3, withNext);
      continue;
    }
    const ci = i * rows;
    const cn = ci + rows;
    let n0 = 0;
    let n1 = 0;
    let n2 = 0;
    let n3 = 0;
    for (let r = 0; r < rows; r++) {
      const vi = columns[ci + r]!;
      const vn = columns[cn + r]!;
      const u0 = columns[c0 + r]! - d0 * vi;
      const u1 = columns[c1 + r]! - d1 * vi;
      const u2 = columns[c2 + r]! - d2 * vi;
      const u3 = columns[c3 + r]! - d3 * vi;
      columns[c0 + r] = u0;
      columns[c1 + r] = u1;
      columns[c2 + r] = u2;
      columns[c3 + r] = u3;
      n0 += vn * u0;
      n1 += vn * u1;
      n2 += vn * u2;
      n3 += vn * u3;
    }
    d0 = n0;
    d1 = n1;
    d2 = n2;
    d3 = n3;
  }
}

/** Scale column j to unit length (or to zero when it has collapsed). */
function normalise(columns: Float64Array, rows: number, j: number): void {
  const cj = j * rows;
  let norm = 0;
  for (let r = 0; r < rows; r++) norm += columns[cj + r]! ** 2;
  norm = Math.sqrt(norm);
  const scale = norm > 1e-12 ? 1 / norm : 0;
  for (let r = 0; r < rows; r++) columns[cj + r]! *= scale;
}
