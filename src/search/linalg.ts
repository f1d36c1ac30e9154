/**
 * The small amount of linear algebra the built-in embedder needs: a sparse row matrix,
 * its products with dense blocks, orthonormalisation and a symmetric eigensolver.
 * Dense blocks are row-major Float64Arrays (`rows × cols`).
 */
import { gatherProductInWasm } from './linalg-simd.js';

export interface SparseRows {
  rows: number;
  cols: number;
  /** Row r's entries are `indices/values[rowStart[r] … rowStart[r + 1])`. */
  rowStart: Uint32Array;
  indices: Uint32Array;
  values: Float64Array;
}

/**
 * `out[at + j] += scale × x[from + j]` for j < length: the inner loop of every product
 * here. Unrolled by four, which V8 runs about a third faster; each element still gets
 * the same additions in the same order, so results are unchanged to the last bit.
 */
export function addScaled(out: Float64Array, at: number, x: Float64Array, from: number, scale: number, length: number): void {
  let j = 0;
  for (; j + 3 < length; j += 4) {
    out[at + j]! += scale * x[from + j]!;
    out[at + j + 1]! += scale * x[from + j + 1]!;
    out[at + j + 2]! += scale * x[from + j + 2]!;
    out[at + j + 3]! += scale * x[from + j + 3]!;
  }
  for (; j < length; j++) out[at + j]! += scale * x[from + j]!;
}

/** A × X, with X `cols(A) × width`: result `rows(A) × width`. */
export function multiply(a: SparseRows, x: Float64Array, width: number): Float64Array {
  return gatherProduct(a.rows, a.rowStart, a.indices, a.values, x, width);
}

/** Aᵀ × Y, with Y `rows(A) × width`: result `cols(A) × width`. */
export function multiplyTransposed(a: SparseRows, y: Float64Array, width: number): Float64Array {
  const t = transposed(a);
  return gatherProduct(a.cols, t.colStart, t.rowIndices, t.values, y, width);
}

/** A's entries by column (rows ascending within a column), built once per matrix. */
interface Columns {
  colStart: Uint32Array;
  rowIndices: Uint32Array;
  values: Float64Array;
}

const columnsOf = new WeakMap<SparseRows, Columns>();

function transposed(a: SparseRows): Columns {
  let columns = columnsOf.get(a);
  if (columns) return columns;
  const colStart = new Uint32Array(a.cols + 1);
  for (let p = 0; p < a.indices.length; p++) colStart[a.indices[p]! + 1]!++;
  for (let c = 0; c < a.cols; c++) colStart[c + 1]! += colStart[c]!;
  const next = colStart.slice(0, a.cols);
  const rowIndices = new Uint32Array(a.indices.length);
  const values = new Float64Array(a.indices.length);
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.rowStart[r]!, end = a.rowStart[r + 1]!; p < end; p++) {
      const at = next[a.indices[p]!]!++;
      rowIndices[at] = r;
      values[at] = a.values[p]!;
    }
  }
  columns = { colStart, rowIndices, values };
  columnsOf.set(a, columns);
  return columns;
}

/** Below this many multiply-adds, copying into WebAssembly memory costs more than it saves. */
const WASM_MIN_WORK = 1 << 16;

/**
 * out[i] = Σ_p values[p] × x[sources[p]] over the entries p of line i (a row of A, or a
 * column for Aᵀ), in WebAssembly SIMD where it can (linalg-simd.ts), which gives the same
 * results to the last bit, else in JavaScript.
 */
function gatherProduct(lines: number, start: Uint32Array, sources: Uint32Array, values: Float64Array, x: Float64Array, width: number): Float64Array {
  const work = (start[lines] ?? 0) * width;
  return (width >= 2 && work >= WASM_MIN_WORK && gatherProductInWasm(lines, start, sources, values, x, width)) || gatherProductInJs(lines, start, sources, values, x, width);
}

/**
 * gatherProduct in JavaScript: each output row is written once, from sums kept in locals
 * four columns at a time. Every output element adds the same products in the same order
 * (entries in ascending order, starting from zero) as a plain row-by-row accumulation, so
 * results are the same to the last bit — only faster, as the scattered writes are gone.
 */
export function gatherProductInJs(lines: number, start: Uint32Array, sources: Uint32Array, values: Float64Array, x: Float64Array, width: number): Float64Array {
  const out = new Float64Array(lines * width);
  const blocked = width - (width % 4);
  for (let i = 0; i < lines; i++) {
    const first = start[i]!;
    const last = start[i + 1]!;
    if (first === last) continue;
    const target = i * width;
    for (let j = 0; j < blocked; j += 4) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let p = first; p < last; p++) {
        const v = values[p]!;
        const from = sources[p]! * width + j;
        s0 += v * x[from]!;
        s1 += v * x[from + 1]!;
        s2 += v * x[from + 2]!;
        s3 += v * x[from + 3]!;
      }
      out[target + j] = s0;
      out[target + j + 1] = s1;
      out[target + j + 2] = s2;
      out[target + j + 3] = s3;
    }
    for (let j = blocked; j < width; j++) {
      let sum = 0;
      for (let p = first; p < last; p++) sum += values[p]! * x[sources[p]! * width + j]!;
      out[target + j] = sum;
    }
  }
  return out;
}

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

/**
 * Eigen-decomposition of a symmetric `n × n` matrix by cyclic Jacobi rotations.
 * Returns eigenvalues in descending order and the matching eigenvectors as the
 * columns of a row-major `n × n` matrix.
 */
export function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j]! - a[i * n + i]!);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((source, target) => {
    values[target] = a[source * n + source]!;
    for (let k = 0; k < n; k++) vectors[k * n + target] = v[k * n + source]!;
  });
  return { values, vectors };
}

/** A small deterministic PRNG (mulberry32), so the same corpus always trains the same model. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal samples (Box-Muller) from a uniform source. */
export function gaussianBlock(size: number, random: () => number): Float64Array {
  const out = new Float64Array(size);
  for (let i = 0; i < size; i += 2) {
    const u = Math.max(random(), 1e-12);
    const w = random();
    const radius = Math.sqrt(-2 * Math.log(u));
    out[i] = radius * Math.cos(2 * Math.PI * w);
    if (i + 1 < size) out[i + 1] = radius * Math.sin(2 * Math.PI * w);
  }
  return out;
}
