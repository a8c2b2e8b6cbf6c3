// The compact stream's dictionary on the receiving side: pixel blocks by id, kept compressed (a cone is
// ≈ 8 KB of zlib, 7 MB of RGBA); their decoded pixels live in the stream's PixelCache instead.
import { MAX_LIVE_BLOCKS, MAX_LIVE_BLOCK_BYTES } from './compact';
import type { DefineBlock } from './compact';

export interface StoredBlock {
  width: number;
  height: number;
  scale: number;
  zlib: Uint8Array; // a copy: the WebSocket message it came in is not kept alive
}

export class BlockTable {
  private readonly blocks = new Map<number, StoredBlock>();
  private zlibBytes = 0;

  constructor(readonly maxBlocks = MAX_LIVE_BLOCKS, readonly maxBytes = MAX_LIVE_BLOCK_BYTES) {}

  get size(): number {
    return this.blocks.size;
  }

  get bytes(): number {
    return this.zlibBytes;
  }

  get(id: number): StoredBlock | undefined {
    return this.blocks.get(id);
  }

  // Puts (or replaces) a block; false when it would take the table past its bounds (TooManyBlocks).
  define(block: DefineBlock): boolean {
    const old = this.blocks.get(block.blockId);
    const bytes = this.zlibBytes - (old?.zlib.length ?? 0) + block.zlib.length;
    if ((!old && this.blocks.size >= this.maxBlocks) || bytes > this.maxBytes) return false;
    this.blocks.set(block.blockId, { width: block.width, height: block.height, scale: block.scale, zlib: block.zlib.slice() });
    this.zlibBytes = bytes;
    return true;
  }

  // An unknown id is nothing; sprites already made from the block keep their pixels.
  forget(id: number): void {
    const old = this.blocks.get(id);
    if (!old) return;
    this.zlibBytes -= old.zlib.length;
    this.blocks.delete(id);
  }

  clear(): void {
    this.blocks.clear();
    this.zlibBytes = 0;
  }
}
