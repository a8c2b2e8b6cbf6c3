// Content-addressed reuse of decoded sprite pixels. A hide-and-seek vision cone (1364×1364 RGBA) is
// redefined whenever its aim changes, because the aim is in its label, but the server draws cone pixels
// for only 64 directions: many redefinitions carry a compressed block byte-identical to one seen a
// moment ago. Such a block is not decompressed again; the decoder hands out the same RGBA array, so the
// texture cache (keyed by that array) and the stage's trim (keyed by it too) skip their work as well.
//
// A block is looked up by FNV-1a of its bytes and its length, and only reused when it is byte-for-byte
// equal to the stored copy, so a hash collision costs a decompression, never a wrong picture. Entries
// are kept least-recently-used first and evicted by total RGBA bytes.
export const PIXEL_CACHE_BYTES = 64 << 20; // RGBA plus the compressed copies
// Blocks under this are decoded every time. Small ones are worth keeping too: cogs, tethers and shout
// bubbles are redefined several times a second with the same pixels (their labels carry the state),
// and the same array means the same texture, not a new GPU texture each time.
export const PIXEL_CACHE_MIN_RGBA_BYTES = 256;
// Sprite v1's blocks; the compact stream's zlib blocks name theirs with their scale (compact.ts).
export const SNAPPY_CODEC = 'snappy';

interface Entry {
  key: string;
  compressed: Uint8Array; // a copy: the message it came in is not kept alive
  rgba: Uint8Array;
}

export function fnv1a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

const entryBytes = (entry: Entry): number => entry.rgba.length + entry.compressed.length;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class PixelCache {
  private readonly entries = new Map<string, Entry>(); // insertion order: least recently used first
  private bytes = 0;
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(readonly maxBytes = PIXEL_CACHE_BYTES, readonly minRgbaBytes = PIXEL_CACHE_MIN_RGBA_BYTES) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  // The RGBA of `compressed` for a width×height sprite: the stored array when this exact block was
  // decoded recently for that size, otherwise decode(compressed) (an error passes through, not stored).
  // The size is part of the key, so one array always has one shape (the texture cache relies on it);
  // so is `codec` (Snappy, or zlib at a widening scale): the same bytes in another codec are another image.
  decode<E>(
    compressed: Uint8Array,
    width: number,
    height: number,
    decode: (block: Uint8Array) => { ok: true; bytes: Uint8Array } | E,
    codec = SNAPPY_CODEC,
  ): { ok: true; bytes: Uint8Array } | E {
    const rgbaBytes = width * height * 4;
    if (rgbaBytes < this.minRgbaBytes || rgbaBytes > this.maxBytes) return decode(compressed);
    const key = `${codec}:${compressed.length}:${width}x${height}:${fnv1a(compressed)}`;
    const entry = this.entries.get(key);
    if (entry && sameBytes(entry.compressed, compressed)) {
      this.entries.delete(key); // most recently used goes last
      this.entries.set(key, entry);
      this.hits++;
      return { ok: true, bytes: entry.rgba };
    }
    this.misses++;
    const result = decode(compressed);
    if (!isOk(result)) return result;
    if (entry) this.remove(entry); // a collision: the newer block takes the slot
    const stored = { key, compressed: compressed.slice(), rgba: result.bytes };
    this.entries.set(key, stored);
    this.bytes += entryBytes(stored);
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.values().next().value!;
      this.remove(oldest);
      this.evictions++;
    }
    return result;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private remove(entry: Entry): void {
    this.entries.delete(entry.key);
    this.bytes -= entryBytes(entry);
  }
}

function isOk<E>(result: { ok: true; bytes: Uint8Array } | E): result is { ok: true; bytes: Uint8Array } {
  return (result as { ok?: unknown }).ok === true;
}
