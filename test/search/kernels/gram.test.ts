import { describe, expect, it } from 'vitest';
import { gramMatrix } from '../../../src/search/kernels/gram.js';
import { seededRandom } from '../../../src/search/kernels/linalg.js';

/** The definition in JavaScript: each pair's products summed element by element from 0; 0 where either vector is missing or of another length than the first present. */
function byDefinition(vectors: ReadonlyArray<Float32Array | undefined>): Float64Array {
  const count = vectors.length;
  const k = vectors.find((vector) => vector !== undefined)?.length ?? 0;
  const gram = new Float64Array(count * count);
  for (let a = 0; a < count; a++) {
    const u = vectors[a];
    if (!u || u.length !== k) continue;
    for (let b = a + 1; b < count; b++) {
      const v = vectors[b];
      if (!v || v.length !== k) continue;
      let dot = 0;
      for (let i = 0; i < k; i++) dot += u[i]! * v[i]!;
      gram[a * count + b] = dot;
      gram[b * count + a] = dot;
    }
  }
  return gram;
}

describe('gramMatrix (every pair’s dot product, in WebAssembly)', () => {
  it('gives to the last bit what the JavaScript sum gives, with missing vectors, vectors of another length, and any count and length', () => {
    const random = seededRandom(31);
    // Large counts first grow the kernel's memory; the small ones after must not see what they left.
    for (const count of [200, 0, 1, 2, 3, 30, 31, 7, 64]) {
      for (const k of [1, 3, 4, 5, 128, 129]) {
        const vectors = Array.from({ length: count }, (): Float32Array | undefined => {
          const roll = random();
          if (roll < 0.08) return undefined;
          if (roll < 0.12) return Float32Array.from({ length: k + 1 }, () => random() - 0.4);
          // Values of every scale, so the sums round often.
          return Float32Array.from({ length: k }, () => (random() - 0.4) * 10 ** Math.floor(random() * 6 - 3));
        });
        const gram = gramMatrix(vectors);
        const expected = byDefinition(vectors);
        expect(gram.length, `count ${count}, k ${k}`).toBe(count * count);
        for (let i = 0; i < gram.length; i++) {
          if (!Object.is(gram[i], expected[i])) expect(gram[i], `count ${count}, k ${k}, entry ${i}`).toBe(expected[i]);
        }
      }
    }
  });

  it('is symmetric with a zero diagonal, and answers the same when asked again', () => {
    const vectors = [Float32Array.of(1, 2, 3), Float32Array.of(-1, 0.5, 2), Float32Array.of(0, 0, 1)];
    const gram = gramMatrix(vectors);
    expect(Array.from(gram)).toEqual([0, 6, 3, 6, 0, 2, 3, 2, 0]);
    expect(gramMatrix(vectors)).toEqual(gram);
  });
});
