import { describe, expect, it } from 'vitest';
import { compressBlock, decompressExactly } from './snappy';
import { seededRandom } from '../testing/seededRandom.testing';

// Runs of a few colours, like sprite art: compresses into literals and copies of every width.
function art(length: number, random: () => number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = random() < 0.9 && i >= 4 ? out[i - 4]! : Math.floor(random() * 4) * 60;
  return out;
}

describe('raw Snappy blocks', () => {
  it('decompress what snappyjs compresses, for every size and mix', () => {
    const random = seededRandom(3);
    for (const length of [4, 16, 60 * 4, 61 * 4, 256 * 4, 72 * 72 * 4, 70_000 * 4]) {
      const input = art(length, random);
      expect(decompressExactly(compressBlock(input), length)).toStrictEqual({ ok: true, bytes: input });
    }
  });

  it('never throw on damaged blocks, and return exactly the expected size when they accept one', () => {
    const random = seededRandom(11);
    const input = art(32 * 32 * 4, random);
    const block = compressBlock(input);
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      const damaged = block.slice(0, Math.max(1, Math.floor(random() * (block.length + 1))));
      for (let flips = 0; flips < 3; flips++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
      const result = decompressExactly(damaged, input.length);
      if (result.ok) expect(result.bytes.length).toBe(input.length);
      else refused++;
    }
    expect(refused).toBeGreaterThan(0);
  });
});
