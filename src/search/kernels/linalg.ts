/**
 * The small amount of linear algebra the built-in embedder needs: a sparse row matrix,
 * its products with dense blocks and a symmetric eigensolver (orthonormalisation is in
 * orthonormalise.ts).
 * Dense blocks are row-major Float64Arrays (`rows × cols`).
 */

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

/**
 * out[i] = Σ_p values[p] × x[sources[p]] over the entries p of line i (a row of A, or a
 * column for Aᵀ). Each output row is written once, from sums kept in locals
 * four columns at a time. Every output element adds the same products in the same order
 * (entries in ascending order, starting from zero) as a plain row-by-row accumulation, so
 * results are the same to the last bit — only faster, as the scattered writes are gone.
 */
function gatherProduct(lines: number, start: Uint32Array, sources: Uint32Array, values: Float64Array, x: Float64Array, width: number): Float64Array {
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
