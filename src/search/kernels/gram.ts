/**
 * The Gram matrix of a few vectors (every pair's dot product), for smoothing the best
 * fused pages over their similar pages: 30 pages are 435 pairs of 128 products, which a
 * fresh process runs mostly unoptimised in JavaScript (3–5 ms for the first search) and
 * WebAssembly runs at once, compiled by V8's baseline compiler as the module is made
 * (under 1 ms, module included; docs/search-eval.md, "The first query of a fresh search").
 *
 * Each pair's sum is the one `dot += u[i] * v[i]` makes in JavaScript, element by element
 * from 0: a float32 times a float32 is exact as a float64, and each float64 addition rounds
 * alike in both, so the numbers are the same to the last bit (test/search/kernels/gram.test.ts).
 */

/**
 * The module, instruction by instruction. In the text format:
 *
 *   (memory (export "memory") 1)
 *   (func (export "gram") (param $rows i32) (param $count i32) (param $k i32) (param $out i32)
 *     (local $a i32) (local $b i32) (local $i i32) (local $pa i32) (local $pb i32) (local $dot f64)
 *     for a in 0 … count − 1, for b in a + 1 … count − 1:
 *       dot = 0; for i in 0 … k − 1: dot = dot + f64(rows[a·k + i]) × f64(rows[b·k + i])
 *       out[a·count + b] = out[b·count + a] = dot
 *
 * `rows` are `count × k` float32 at byte offset `rows`, `out` is `count × count` float64
 * at byte offset `out`; the diagonal is not written.
 */
const GRAM_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x08, 0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x00, // types: (i32 i32 i32 i32) → ()
  0x03, 0x02, 0x01, 0x00, // functions: one, of type 0
  0x05, 0x03, 0x01, 0x00, 0x01, // memory: one, at least 1 page
  0x07, 0x11, 0x02, // exports: two
  0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, //   "memory": memory 0
  0x04, 0x67, 0x72, 0x61, 0x6d, 0x00, 0x00, //   "gram": function 0
  0x0a, 0xc1, 0x01, 0x01, 0xbe, 0x01, // code: one body of 190 bytes
  0x02, 0x05, 0x7f, 0x01, 0x7c, // locals: 5 × i32 (a b i pa pb), 1 × f64 (dot)
  0x02, 0x40, 0x03, 0x40, // block, loop (over a)
  0x20, 0x04, 0x20, 0x01, 0x4f, 0x0d, 0x01, //   br_if out when a ≥ count
  0x20, 0x04, 0x41, 0x01, 0x6a, 0x21, 0x05, //   b = a + 1
  0x02, 0x40, 0x03, 0x40, //   block, loop (over b)
  0x20, 0x05, 0x20, 0x01, 0x4f, 0x0d, 0x01, //     br_if out when b ≥ count
  0x44, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0x09, //     dot = 0
  0x41, 0x00, 0x21, 0x06, //     i = 0
  0x20, 0x00, 0x20, 0x04, 0x20, 0x02, 0x6c, 0x41, 0x02, 0x74, 0x6a, 0x21, 0x07, //     pa = rows + (a × k) << 2
  0x20, 0x00, 0x20, 0x05, 0x20, 0x02, 0x6c, 0x41, 0x02, 0x74, 0x6a, 0x21, 0x08, //     pb = rows + (b × k) << 2
  0x02, 0x40, 0x03, 0x40, //     block, loop (over i)
  0x20, 0x06, 0x20, 0x02, 0x4f, 0x0d, 0x01, //       br_if out when i ≥ k
  0x20, 0x09, //       dot
  0x20, 0x07, 0x2a, 0x02, 0x00, 0xbb, //       f64.promote(f32.load pa)
  0x20, 0x08, 0x2a, 0x02, 0x00, 0xbb, //       f64.promote(f32.load pb)
  0xa2, 0xa0, 0x21, 0x09, //       dot = dot + (× of the two)
  0x20, 0x07, 0x41, 0x04, 0x6a, 0x21, 0x07, //       pa += 4
  0x20, 0x08, 0x41, 0x04, 0x6a, 0x21, 0x08, //       pb += 4
  0x20, 0x06, 0x41, 0x01, 0x6a, 0x21, 0x06, //       i += 1
  0x0c, 0x00, 0x0b, 0x0b, //     br loop, end loop, end block
  0x20, 0x03, 0x20, 0x04, 0x20, 0x01, 0x6c, 0x20, 0x05, 0x6a, 0x41, 0x03, 0x74, 0x6a, //     out + (a × count + b) << 3
  0x20, 0x09, 0x39, 0x03, 0x00, //     f64.store dot
  0x20, 0x03, 0x20, 0x05, 0x20, 0x01, 0x6c, 0x20, 0x04, 0x6a, 0x41, 0x03, 0x74, 0x6a, //     out + (b × count + a) << 3
  0x20, 0x09, 0x39, 0x03, 0x00, //     f64.store dot
  0x20, 0x05, 0x41, 0x01, 0x6a, 0x21, 0x05, //     b += 1
  0x0c, 0x00, 0x0b, 0x0b, //   br loop, end loop, end block
  0x20, 0x04, 0x41, 0x01, 0x6a, 0x21, 0x04, //   a += 1
  0x0c, 0x00, 0x0b, 0x0b, // br loop, end loop, end block
  0x0b, // end of the body
]);

interface GramExports {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  gram: (rows: number, count: number, k: number, out: number) => void;
}

/** The part of Node's WebAssembly this uses (the type libraries the build compiles against leave it out). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

const PAGE_BYTES = 65_536;
let instance: GramExports | undefined;

function gramKernel(): GramExports {
  const { Module, Instance } = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
  instance ??= new Instance(new Module(GRAM_MODULE)).exports as GramExports;
  return instance;
}

/**
 * Every pair's dot product, `count × count` by position (symmetric; 0 on the diagonal and
 * for a pair where either vector is missing or of another length than the first present).
 */
export function gramMatrix(vectors: ReadonlyArray<Float32Array | undefined>): Float64Array {
  const count = vectors.length;
  const k = vectors.find((vector) => vector !== undefined)?.length ?? 0;
  const present = vectors.map((vector) => vector !== undefined && vector.length === k);
  const outBytes = count * count * 8;
  const kernel = gramKernel();
  const needed = outBytes + count * k * 4;
  const pages = Math.ceil(needed / PAGE_BYTES) - kernel.memory.buffer.byteLength / PAGE_BYTES;
  if (pages > 0) kernel.memory.grow(pages);
  const rows = new Float32Array(kernel.memory.buffer, outBytes, count * k);
  // A missing vector's row keeps what was there: its pairs are set to 0 below.
  vectors.forEach((vector, at) => {
    if (present[at]) rows.set(vector!, at * k);
  });
  kernel.gram(outBytes, count, k, 0);
  const gram = new Float64Array(kernel.memory.buffer, 0, count * count).slice();
  for (let a = 0; a < count; a++) {
    gram[a * count + a] = 0;
    if (present[a]) continue;
    for (let b = 0; b < count; b++) gram[a * count + b] = gram[b * count + a] = 0;
  }
  return gram;
}
