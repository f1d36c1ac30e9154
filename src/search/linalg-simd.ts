import { compileOnce, get, i32, leb, oneFunctionModule, PAGE_BYTES, set, simd, type CompiledModule, type WasmMemory } from './wasm-module.js';

type GatherFunction = (start: number, sources: number, values: number, x: number, out: number, lines: number, width: number) => void;

/** Addresses stay below 2³¹ so the module's unsigned 32-bit address arithmetic cannot wrap. */
const MAX_BYTES = 2 ** 31;
const LINES_PER_CALL = 64;

/**
 * The sparse × dense product of linalg.ts (`gatherProduct`) in WebAssembly SIMD, about
 * twice as fast as the JavaScript loop. For each output element the module adds the same
 * products in the same order as the JavaScript loop does: a sum that starts at zero and
 * adds values[p] × x[…] for the line's entries p ascending, each product and sum rounded
 * to 64 bits (f64x2 multiply, then add: no fused multiply-add). Its lanes hold the sums of
 * neighbouring output columns, eight columns at a time, then two, then a last one, so the
 * results are the JavaScript loop's to the last bit.
 *
 * The arrays are copied into the module's memory (a few milliseconds for a build's
 * training, against the hundreds the product saves). Returns undefined where WebAssembly
 * SIMD is unavailable or the arrays would not fit in its 32-bit memory.
 */
export function gatherProductInWasm(
  lines: number,
  start: Uint32Array,
  sources: Uint32Array,
  values: Float64Array,
  x: Float64Array,
  width: number,
): Float64Array | undefined {
  const entries = start[lines] ?? 0;
  const startAt = 0;
  const sourcesAt = aligned(startAt + (lines + 1) * 4);
  const valuesAt = aligned(sourcesAt + entries * 4);
  const xAt = aligned(valuesAt + entries * 8);
  const outAt = aligned(xAt + x.length * 8);
  const needed = outAt + lines * width * 8;
  if (width <= 0 || needed >= MAX_BYTES) return undefined;
  const kernel = gatherKernel(needed);
  if (!kernel) return undefined;
  const { buffer } = kernel.memory;
  new Uint32Array(buffer, startAt, lines + 1).set(start.subarray(0, lines + 1));
  new Uint32Array(buffer, sourcesAt, entries).set(sources.subarray(0, entries));
  new Float64Array(buffer, valuesAt, entries).set(values.subarray(0, entries));
  new Float64Array(buffer, xAt, x.length).set(x);
  // In runs of lines: V8 first runs a module as quickly compiled baseline code and swaps in
  // optimised code only between calls, so one long call would run slowly throughout.
  for (let line = 0; line < lines; line += LINES_PER_CALL) {
    const count = Math.min(LINES_PER_CALL, lines - line);
    kernel.run(startAt + line * 4, sourcesAt, valuesAt, xAt, outAt + line * width * 8, count, width);
  }
  return new Float64Array(buffer, outAt, lines * width).slice();
}

function aligned(offset: number): number {
  return Math.ceil(offset / 16) * 16;
}

interface Kernel {
  memory: WasmMemory;
  run: GatherFunction;
}

const compiledGather: { module?: CompiledModule | null } = {};
let instance: Kernel | undefined;

/**
 * An instance with at least `bytes` of memory. It is kept only for the synchronous work
 * in progress (a training's products follow one another without a pause) and let go
 * after it, so its memory, as large as the largest product, is not held for good.
 */
function gatherKernel(bytes: number): Kernel | undefined {
  const module = gatherModule();
  if (!module) return undefined;
  if (!instance) {
    const { exports } = new module.api.Instance(module.compiled);
    instance = { memory: exports.memory as WasmMemory, run: exports.gather as GatherFunction };
    queueMicrotask(() => (instance = undefined));
  }
  const have = instance.memory.buffer.byteLength;
  try {
    if (bytes > have) instance.memory.grow(Math.ceil((bytes - have) / PAGE_BYTES));
  } catch {
    return undefined; // no memory to spare: the JavaScript loop needs none
  }
  return instance;
}

function gatherModule(): CompiledModule | null {
  return compileOnce(compiledGather, gatherWasm);
}

/**
 * The module, assembled here (it is small, and this keeps it readable). Addresses are
 * in bytes; `start` holds lines + 1 entry offsets, `x` rows of `width` doubles:
 *
 *   (func (export "gather") (param $start $sources $values $x $out $lines $width i32)
 *     (local $rowBytes $first $last $j $p $base i32) (local $a0 $a1 $a2 $a3 v128) (local $s f64)
 *     $rowBytes = $width × 8
 *     loop while $lines > 0                            ;; per output line
 *       $first = i32.load($start); $last = i32.load($start + 4); $j = 0
 *       loop while $j + 64 ≤ $rowBytes                 ;; eight columns: four f64x2 sums
 *         $a0..$a3 = 0
 *         for $p in [$first, $last):
 *           $base = $x + i32.load($sources + 4$p) × $rowBytes + $j
 *           $ak = $ak + f64x2.splat(f64.load($values + 8$p)) × v128.load($base + 16k)
 *         v128.store($out + $j + 16k, $ak); $j += 64
 *       loop while $j + 16 ≤ $rowBytes                 ;; two columns: one f64x2 sum
 *         (the same with $a0 only); $j += 16
 *       if $j < $rowBytes                              ;; the last column: an f64 sum
 *         $s = 0; for $p: $s = $s + f64.load($values + 8$p) × f64.load($base); f64.store($out + $j, $s)
 *       $out += $rowBytes; $start += 4; $lines -= 1
 *   (memory (export "memory") 1)
 */
function gatherWasm(): Uint8Array {
    const [start, sources, values, x, out, lines, width] = [0, 1, 2, 3, 4, 5, 6];
  const [rowBytes, first, last, j, p, base] = [7, 8, 9, 10, 11, 12];
  const sums = [13, 14, 15, 16];
  const s = 17;
  const [add, sub, mul, shl, ltU, gtU, geU, eqz] = [0x6a, 0x6b, 0x6c, 0x74, 0x49, 0x4b, 0x4f, 0x45];
  const [block, loop, ifThen, end, br, brIf] = [[0x02, 0x40], [0x03, 0x40], [0x04, 0x40], 0x0b, 0x0c, 0x0d];
  const i32Load = (offset: number): number[] => [0x28, 2, ...leb(offset)];
  const f64Load = [0x2b, 3, 0];
  const f64Store = [0x39, 3, 0];
  const v128Load = (offset: number): number[] => [...simd(0x00), 3, ...leb(offset)];
  const v128Store = (offset: number): number[] => [...simd(0x0b), 3, ...leb(offset)];
  const zero = [...simd(0x0c), ...new Array<number>(16).fill(0)];
  const [splat, f64x2Add, f64x2Mul] = [simd(0x14), simd(0xf0), simd(0xf2)];
  const f64Zero = [0x44, ...new Array<number>(8).fill(0)];
  const [f64Add, f64Mul] = [0xa0, 0xa2];

  /** For $p from $first while $p < $last: `step` (with $base set to the entry's x address, column $j). */
  const entries = (step: number[]): number[] => [
    ...get(first), ...set(p),
    ...block, ...loop,
    ...get(p), ...get(last), geU, brIf, 1,
    ...get(x), ...get(sources), ...get(p), ...i32(2), shl, add, ...i32Load(0), ...get(rowBytes), mul, add, ...get(j), add, ...set(base),
    ...step,
    ...get(p), ...i32(1), add, ...set(p),
    br, 0, end, end,
  ];
  const value = [...get(values), ...get(p), ...i32(3), shl, add, ...f64Load];
  const accumulate = (sum: number, offset: number): number[] => [
    ...get(sum), ...value, ...splat, ...get(base), ...v128Load(offset), ...f64x2Mul, ...f64x2Add, ...set(sum),
  ];
  /** While $j + bytes ≤ $rowBytes: sums into `sums`, stored at $out + $j; $j += bytes. */
  const columns = (sums: number[]): number[] => {
    const bytes = sums.length * 16;
    return [
      ...block, ...loop,
      ...get(j), ...i32(bytes), add, ...get(rowBytes), gtU, brIf, 1,
      ...sums.flatMap((sum) => [...zero, ...set(sum)]),
      ...entries(sums.flatMap((sum, k) => accumulate(sum, k * 16))),
      ...sums.flatMap((sum, k) => [...get(out), ...get(j), add, ...get(sum), ...v128Store(k * 16)]),
      ...get(j), ...i32(bytes), add, ...set(j),
      br, 0, end, end,
    ];
  };
  const lastColumn = [
    ...get(j), ...get(rowBytes), ltU, ...ifThen,
    ...f64Zero, ...set(s),
    ...entries([...get(s), ...value, ...get(base), ...f64Load, f64Mul, f64Add, ...set(s)]),
    ...get(out), ...get(j), add, ...get(s), ...f64Store,
    end,
  ];
  const body = [
    ...get(width), ...i32(3), shl, ...set(rowBytes),
    ...block, ...loop,
    ...get(lines), eqz, brIf, 1,
    ...get(start), ...i32Load(0), ...set(first), ...get(start), ...i32Load(4), ...set(last), ...i32(0), ...set(j),
    ...columns(sums),
    ...columns(sums.slice(0, 1)),
    ...lastColumn,
    ...get(out), ...get(rowBytes), add, ...set(out),
    ...get(start), ...i32(4), add, ...set(start),
    ...get(lines), ...i32(1), sub, ...set(lines),
    br, 0, end, end,
    end,
  ];
  return oneFunctionModule('gather', 7, [[6, 0x7f], [4, 0x7b], [1, 0x7c]], body);
}
