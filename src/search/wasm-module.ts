/**
 * What the hand-assembled WebAssembly kernels (vector-scan.ts, linalg-simd.ts) share: the
 * few APIs they use, compiling once with a fallback, and the binary encoding of a module
 * of one exported function over one exported memory. Each kernel keeps its own function
 * body, written out with these helpers next to the text form it encodes.
 */

/** The few WebAssembly APIs used (the project's type libraries do not declare them). */
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export const PAGE_BYTES = 65_536;

export interface CompiledModule {
  api: WasmApi;
  compiled: object;
}

/**
 * Compile `bytes()` once per `cache`; null where WebAssembly SIMD is not available, or where
 * typed arrays are big-endian (WebAssembly memory is little-endian): the caller then runs
 * its JavaScript loop.
 */
export function compileOnce(cache: { module?: CompiledModule | null }, bytes: () => Uint8Array): CompiledModule | null {
  if (cache.module !== undefined) return cache.module;
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  const littleEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
  try {
    cache.module = api && littleEndian ? { api, compiled: new api.Module(bytes()) } : null;
  } catch {
    cache.module = null;
  }
  return cache.module;
}

/** Unsigned LEB128. */
export function leb(n: number): number[] {
  const out: number[] = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n ? low | 0x80 : low);
  } while (n);
  return out;
}

export const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
export const simd = (op: number): number[] => [0xfd, ...leb(op)];
export const get = (local: number): number[] => [0x20, local];
export const set = (local: number): number[] => [0x21, local];
export const i32 = (n: number): number[] => [0x41, ...leb(n)];

const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
const name = (text: string): number[] => [...leb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];

/**
 * A module exporting one function `(i32 × params) → ()` named `exported`, with `locals`
 * (count, type) and `body`, and its memory (at least one page) as `memory`.
 */
export function oneFunctionModule(exported: string, params: number, locals: number[][], body: number[]): Uint8Array {
  const code = [...vec(locals), ...body];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec(Array.from({ length: params }, () => [0x7f])), 0]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(7, vec([[...name(exported), 0x00, 0], [...name('memory'), 0x02, 0]])),
    ...section(10, vec([[...leb(code.length), ...code]])),
  ]);
}
