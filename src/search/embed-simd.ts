import { compileOnce, get, i32, leb, oneFunctionModule, PAGE_BYTES, set, simd, type CompiledModule, type WasmMemory } from './wasm-module.js';

/** The parts of a trained LSA model that embedding reads. */
export interface EmbeddingModel {
  /** `rows × dimensions`, row-major. */
  readonly basis: Float32Array;
  /** By row. */
  readonly idf: Float32Array;
  readonly dimensions: number;
}

type EmbedFunction = (...args: number[]) => void;

/** Addresses stay below 2³¹ so the module's unsigned 32-bit address arithmetic cannot wrap. */
const MAX_BYTES = 2 ** 31;
/**
 * Pages per call, and room for their ids (at least the longest page's): V8 first runs a
 * module as quickly compiled baseline code and swaps in optimised code only between
 * calls, and each call's results are read out before the next.
 */
const PAGES_PER_CALL = 64;
const IDS_PER_CALL = 1 << 16;

/**
 * LsaModel's embedding of many pages (`embedRows` in lsa.ts) in WebAssembly SIMD, several
 * times faster than its JavaScript loop. Everything happens in the module but the
 * logarithms, which come from a table of 1 + ln tf that JavaScript computes: term
 * frequencies by model row, weights (1 + ln tf) × idf, the weighted sum of the rows'
 * basis vectors and its normalisation. Each output column is the JavaScript loop's sum
 * to the last bit: it starts at zero and adds weight × basis element for the page's rows
 * in order of first appearance, each product and sum rounded to 64 bits (f64x2 multiply,
 * then add: no fused multiply-add); lanes hold neighbouring columns. The norm adds the
 * squares in column order (V8 computes `x ** 2` as `x * x`), and the unit vector is
 * rounded to 32 bits as a Float32Array store rounds.
 *
 * `rowOf` maps a page's ids to model rows (-1: not in the model; ids outside it are not
 * either). The model is copied into the module's memory, which the call lets go when it
 * returns (a few milliseconds per 10 MB of basis, against the hundreds the loop saves on
 * thousands of pages: for a few pages the JavaScript loop is quicker). Returns undefined
 * where WebAssembly SIMD is unavailable or the arrays would not fit in its 32-bit memory.
 */
export function embedPagesInWasm(
  model: EmbeddingModel,
  rowOf: Int32Array,
  pages: ReadonlyArray<ArrayLike<number>>,
): Array<Float32Array | undefined> | undefined {
  const k = model.dimensions;
  const rows = model.idf.length;
  if (k <= 0 || model.basis.length !== rows * k) return undefined;
  let longest = 0;
  for (const page of pages) longest = Math.max(longest, page.length);
  const idsPerCall = Math.max(IDS_PER_CALL, longest);
  const layout = layoutFor(model.basis.length, rows, k, rowOf.length, longest, idsPerCall);
  if (layout.end >= MAX_BYTES) return undefined;
  const kernel = embedKernel(layout.end);
  if (!kernel) return undefined;

  const { buffer } = kernel.memory;
  new Float32Array(buffer, 0, model.basis.length).set(model.basis);
  new Float32Array(buffer, layout.idf, rows).set(model.idf);
  new Int32Array(buffer, layout.rowOf, rowOf.length).set(rowOf);
  const logs = new Float64Array(buffer, layout.logs, longest + 1);
  for (let tf = 1; tf <= longest; tf++) logs[tf] = 1 + Math.log(tf);
  const ids = new Int32Array(buffer, layout.ids, idsPerCall);
  const lengths = new Int32Array(buffer, layout.lengths, PAGES_PER_CALL);
  const vectors = new Float32Array(buffer, layout.vectors, PAGES_PER_CALL * k);
  const norms = new Float64Array(buffer, layout.norms, PAGES_PER_CALL);

  const results = new Array<Float32Array | undefined>(pages.length);
  for (let first = 0; first < pages.length; ) {
    let count = 0;
    let used = 0;
    while (count < PAGES_PER_CALL && first + count < pages.length) {
      const page = pages[first + count]!;
      if (used + page.length > idsPerCall) break;
      ids.set(page, used);
      used += page.length;
      lengths[count++] = page.length;
    }
    kernel.run(layout.ids, layout.lengths, count, k, layout.idf, layout.rowOf, rowOf.length, layout.counts, layout.logs, layout.entries, layout.sums, layout.vectors, layout.norms);
    for (let i = 0; i < count; i++) results[first + i] = norms[i] === 0 ? undefined : vectors.slice(i * k, (i + 1) * k);
    first += count;
  }
  return results;
}

/** The basis at 0, then each array at a 16-byte boundary. */
function layoutFor(basisLength: number, rows: number, k: number, known: number, longest: number, idsPerCall: number) {
  let end = basisLength * 4;
  const place = (bytes: number): number => {
    const at = Math.ceil(end / 16) * 16;
    end = at + bytes;
    return at;
  };
  const idf = place(rows * 4);
  const rowOf = place(known * 4);
  const counts = place(rows * 4); // term frequency by row, zero between pages
  const logs = place((longest + 1) * 8); // 1 + ln tf by tf
  const entries = place(Math.min(rows, longest) * 16); // a page's rows and weights
  const sums = place(k * 8); // a page's vector before normalisation
  const ids = place(idsPerCall * 4);
  const lengths = place(PAGES_PER_CALL * 4);
  const vectors = place(PAGES_PER_CALL * k * 4);
  const norms = place(PAGES_PER_CALL * 8);
  return { idf, rowOf, counts, logs, entries, sums, ids, lengths, vectors, norms, end };
}

interface Kernel {
  memory: WasmMemory;
  run: EmbedFunction;
}

const compiledEmbed: { module?: CompiledModule | null } = {};

/** A fresh instance (its memory zero) with at least `bytes` of memory. */
function embedKernel(bytes: number): Kernel | undefined {
  const module = compileOnce(compiledEmbed, embedWasm);
  if (!module) return undefined;
  const { exports } = new module.api.Instance(module.compiled);
  const memory = exports.memory as WasmMemory;
  const have = memory.buffer.byteLength;
  try {
    if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE_BYTES));
  } catch {
    return undefined; // no memory to spare: the JavaScript loop needs none
  }
  return { memory, run: exports.embed as EmbedFunction };
}

/**
 * The module, assembled here (it is small, and this keeps it readable). Addresses are in
 * bytes; the basis is at 0, its rows `$rowBytes` apart; an entry is 16 bytes: the row's
 * weight (f64), then its basis address (i32):
 *
 *   (func (export "embed") (param $ids $lengths $pages $k $idf $rowOf $known $counts $logs $entries $sums $vectors $norms i32)
 *     (local $rowBytes $end $first $last $j $p $base $t $c $at i32) (local $a0 $a1 $a2 $a3 $w v128) (local $s $x f64)
 *     $rowBytes = $k × 4
 *     loop while $pages > 0                                ;; per page
 *       $end = $ids + 4 × i32.load($lengths); $last = $entries
 *       loop while $ids < $end                             ;; frequencies by row, rows in order of first appearance
 *         $t = i32.load($ids); $ids += 4
 *         if $t <u $known: $t = i32.load($rowOf + 4$t)
 *           if $t ≥ 0: $at = $counts + 4$t; $c = i32.load($at)
 *             if $c = 0: i32.store($last + 8, $t); $last += 16
 *             i32.store($at, $c + 1)
 *       $first = $entries                                  ;; weights; those of zero dropped
 *       for $p in [$entries, $last), step 16:
 *         $t = i32.load($p + 8); $at = $counts + 4$t
 *         $x = f64.load($logs + 8 × i32.load($at)) × f64.promote_f32(f32.load($idf + 4$t)); i32.store($at, 0)
 *         if $x ≠ 0: f64.store($first, $x); i32.store($first + 8, $t × $rowBytes); $first += 16
 *       $last = $first; $first = $entries; $j = 0          ;; $j: a column's offset in a basis row
 *       loop while $j + 32 ≤ $rowBytes                     ;; eight columns: four f64x2 sums
 *         $a0..$a3 = 0
 *         for $p in [$first, $last), step 16:
 *           $w = f64x2.splat(f64.load($p)); $base = i32.load($p + 8) + $j
 *           $ak = $ak + $w × f64x2.promote_low_f32x4(v128.load64_zero($base + 8k))
 *         v128.store($sums + 2$j + 16k, $ak); $j += 32
 *       loop while $j + 8 ≤ $rowBytes                      ;; two columns: one f64x2 sum
 *         (the same with $a0 only); $j += 8
 *       if $j < $rowBytes                                  ;; the last column: an f64 sum
 *         $s = 0; for $p: $s = $s + f64.load($p) × f64.promote_f32(f32.load($base)); f64.store($sums + 2$j, $s)
 *       $s = 0                                             ;; the norm, then the unit vector
 *       for $j in [0, 2 × $rowBytes), step 8: $x = f64.load($sums + $j); $s = $s + $x × $x
 *       f64.store($norms, $s); $s = 1 / f64.sqrt($s)
 *       for $j in [0, $rowBytes), step 4: f32.store($vectors + $j, f32.demote_f64(f64.load($sums + 2$j) × $s))
 *       $vectors += $rowBytes; $norms += 8; $lengths += 4; $pages -= 1
 *   (memory (export "memory") 1)
 */
function embedWasm(): Uint8Array {
  const [ids, lengths, pages, k, idf, rowOf, known, counts, logs, entries, sums, vectors, norms] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const [rowBytes, end, first, last, j, p, base, t, c, at] = [13, 14, 15, 16, 17, 18, 19, 20, 21, 22];
  const columnSums = [23, 24, 25, 26];
  const w = 27;
  const [s, x] = [28, 29];
  const [add, sub, mul, shl, ltU, gtU, geU, eqz, geS] = [0x6a, 0x6b, 0x6c, 0x74, 0x49, 0x4b, 0x4f, 0x45, 0x4e];
  const [block, loop, ifThen, endOp, br, brIf, tee] = [[0x02, 0x40], [0x03, 0x40], [0x04, 0x40], 0x0b, 0x0c, 0x0d, 0x22];
  const i32Load = (offset: number): number[] => [0x28, 2, ...leb(offset)];
  const i32Store = (offset: number): number[] => [0x36, 2, ...leb(offset)];
  const f32Load = [0x2a, 2, 0];
  const f32Store = [0x38, 2, 0];
  const f64Load = [0x2b, 3, 0];
  const f64Store = [0x39, 3, 0];
  const load64Zero = (offset: number): number[] => [...simd(0x5d), 0, ...leb(offset)];
  const v128Store = (offset: number): number[] => [...simd(0x0b), 0, ...leb(offset)];
  const zero = [...simd(0x0c), ...new Array<number>(16).fill(0)];
  const [splat, f64x2Add, f64x2Mul, promoteLow] = [simd(0x14), simd(0xf0), simd(0xf2), simd(0x5f)];
  const f64Zero = [0x44, ...new Array<number>(8).fill(0)];
  const f64One = [0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
  const [f64Add, f64Mul, f64Div, f64Sqrt, f64Ne, f64Promote, f32Demote] = [0xa0, 0xa2, 0xa3, 0x9f, 0x62, 0xbb, 0xb6];
  const increase = (local: number, by: number): number[] => [...get(local), ...i32(by), add, ...set(local)];
  /** `local` + 4 × `index` (an i32 array's element). */
  const element = (local: number, index: number): number[] => [...get(local), ...get(index), ...i32(2), shl, add];
  /** While `stop` (a condition) is false: `step`. */
  const until = (stop: number[], step: number[]): number[] => [...block, ...loop, ...stop, brIf, 1, ...step, br, 0, endOp, endOp];

  const countRows = [
    ...get(ids), ...get(lengths), ...i32Load(0), ...i32(2), shl, add, ...set(end),
    ...get(entries), ...set(last),
    ...until([...get(ids), ...get(end), geU], [
      ...get(ids), ...i32Load(0), ...set(t), ...increase(ids, 4),
      ...get(t), ...get(known), ltU, ...ifThen,
      ...element(rowOf, t), ...i32Load(0), ...set(t),
      ...get(t), ...i32(0), geS, ...ifThen,
      ...element(counts, t), ...set(at), ...get(at), ...i32Load(0), ...set(c),
      ...get(c), eqz, ...ifThen, ...get(last), ...get(t), ...i32Store(8), ...increase(last, 16), endOp,
      ...get(at), ...get(c), ...i32(1), add, ...i32Store(0),
      endOp, endOp,
    ]),
  ];
  const weighRows = [
    ...get(entries), ...set(first), ...get(entries), ...set(p),
    ...until([...get(p), ...get(last), geU], [
      ...get(p), ...i32Load(8), ...set(t), ...element(counts, t), ...set(at),
      ...get(logs), ...get(at), ...i32Load(0), ...i32(3), shl, add, ...f64Load,
      ...element(idf, t), ...f32Load, f64Promote, f64Mul, ...set(x),
      ...get(at), ...i32(0), ...i32Store(0),
      ...get(x), ...f64Zero, f64Ne, ...ifThen,
      ...get(first), ...get(x), ...f64Store,
      ...get(first), ...get(t), ...get(rowBytes), mul, ...i32Store(8),
      ...increase(first, 16),
      endOp,
      ...increase(p, 16),
    ]),
    ...get(first), ...set(last), ...get(entries), ...set(first), ...i32(0), ...set(j),
  ];
  /** For $p over the entries: `step` (with $base the entry's basis address at column $j). */
  const overEntries = (step: number[]): number[] => [
    ...get(first), ...set(p),
    ...until([...get(p), ...get(last), geU], [
      ...get(p), ...i32Load(8), ...get(j), add, ...set(base),
      ...step,
      ...increase(p, 16),
    ]),
  ];
  /** `sums` at $sums + 2$j (8 bytes a column where the basis has 4). */
  const sumsAt = [...get(sums), ...get(j), ...i32(1), shl, add];
  /** While $j + (two columns per sum) ≤ $rowBytes: the sums, stored; $j moves on. */
  const columns = (lanes: number[]): number[] => {
    const bytes = lanes.length * 8;
    return until([...get(j), ...i32(bytes), add, ...get(rowBytes), gtU], [
      ...lanes.flatMap((sum) => [...zero, ...set(sum)]),
      ...overEntries([
        ...get(p), ...f64Load, ...splat, ...set(w),
        ...lanes.flatMap((sum, i) => [...get(sum), ...get(w), ...get(base), ...load64Zero(i * 8), ...promoteLow, ...f64x2Mul, ...f64x2Add, ...set(sum)]),
      ]),
      ...lanes.flatMap((sum, i) => [...sumsAt, ...get(sum), ...v128Store(i * 16)]),
      ...increase(j, bytes),
    ]);
  };
  const lastColumn = [
    ...get(j), ...get(rowBytes), ltU, ...ifThen,
    ...f64Zero, ...set(s),
    ...overEntries([...get(s), ...get(p), ...f64Load, ...get(base), ...f32Load, f64Promote, f64Mul, f64Add, ...set(s)]),
    ...sumsAt, ...get(s), ...f64Store,
    endOp,
  ];
  const normalise = [
    ...f64Zero, ...set(s), ...i32(0), ...set(j),
    ...until([...get(j), ...get(rowBytes), ...i32(1), shl, geU], [
      ...get(s), ...get(sums), ...get(j), add, ...f64Load, tee, x, ...get(x), f64Mul, f64Add, ...set(s),
      ...increase(j, 8),
    ]),
    ...get(norms), ...get(s), ...f64Store,
    ...f64One, ...get(s), f64Sqrt, f64Div, ...set(s),
    ...i32(0), ...set(j),
    ...until([...get(j), ...get(rowBytes), geU], [
      ...get(vectors), ...get(j), add, ...sumsAt, ...f64Load, ...get(s), f64Mul, f32Demote, ...f32Store,
      ...increase(j, 4),
    ]),
  ];
  const body = [
    ...get(k), ...i32(2), shl, ...set(rowBytes),
    ...until([...get(pages), eqz], [
      ...countRows,
      ...weighRows,
      ...columns(columnSums),
      ...columns(columnSums.slice(0, 1)),
      ...lastColumn,
      ...normalise,
      ...get(vectors), ...get(rowBytes), add, ...set(vectors),
      ...increase(norms, 8), ...increase(lengths, 4),
      ...get(pages), ...i32(1), sub, ...set(pages),
    ]),
    endOp,
  ];
  return oneFunctionModule('embed', 13, [[10, 0x7f], [5, 0x7b], [2, 0x7c]], body);
}
