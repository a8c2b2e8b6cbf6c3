// One compact watch socket's receiving side (compact.ts): each WebSocket message is decoded with the
// full check, then applied message by message to the retained SpriteWorld, the block table and the
// frame marks. Like SpriteStream it reports an error instead of ever throwing.
import { BlockTable } from './blockTable';
import { FrameFlag, blockRgba, decodeCompact } from './compact';
import type { CompactError, CompactMessage, FrameMark } from './compact';
import { PixelCache } from './pixelCache';
import { SpriteWorld } from './world';

export type CompactApplied = { ok: true } | { ok: false; error: CompactError };

export class CompactStream {
  readonly world = new SpriteWorld();
  // Decoded blocks (and inline sprites) by content: a cone seen again is not inflated again, and
  // sprites made from one block share one array, so the texture cache uploads it once.
  readonly pixels = new PixelCache();
  readonly blocks = new BlockTable();
  messages = 0; // WebSocket messages applied
  frames = 0; // Frame marks applied: one per tick the server sent us
  keyframes = 0;
  resyncs = 0; // frames marked resync: the server skipped frames because we could not keep up
  lastFrame: FrameMark | null = null; // the tick now shown, and its flags
  error: CompactError | null = null;

  receive(data: ArrayBuffer | Uint8Array): CompactApplied {
    if (this.error) return { ok: false, error: this.error };
    let result: CompactApplied;
    try {
      const decoded = decodeCompact(data instanceof Uint8Array ? data : new Uint8Array(data), this.pixels);
      result = decoded.ok ? this.apply(decoded.messages) : decoded;
    } catch {
      result = { ok: false, error: 'Internal' };
    }
    if (result.ok) this.messages++;
    else this.error = result.error;
    return result;
  }

  private apply(messages: readonly CompactMessage[]): CompactApplied {
    this.world.touch();
    for (const message of messages) {
      const error = this.applyOne(message);
      if (error) return { ok: false, error };
    }
    return { ok: true };
  }

  private applyOne(message: CompactMessage): CompactError | null {
    switch (message.type) {
      case 'FrameMark':
        if (message.flags & FrameFlag.Keyframe) {
          this.blocks.clear(); // a keyframe starts the dictionary afresh
          this.keyframes++;
        }
        if (message.flags & FrameFlag.Resync) this.resyncs++;
        this.frames++;
        this.lastFrame = message;
        return null;
      case 'DefineBlock':
        return this.blocks.define(message) ? null : 'TooManyBlocks';
      case 'UseBlock': {
        const block = this.blocks.get(message.blockId);
        if (!block) return 'UnknownBlock';
        const pixels = blockRgba(block, this.pixels);
        if (!pixels.ok) return 'Internal'; // the block was fully checked when it came: only our bug gets here
        this.world.useSprite(message.spriteId, block.width, block.height, pixels.bytes, message.label);
        return null;
      }
      case 'Relabel':
        return this.world.relabel(message.spriteId, message.label) ? null : 'UnknownSprite';
      case 'ForgetBlock':
        this.blocks.forget(message.blockId);
        return null;
      default:
        return this.world.applyOne(message);
    }
  }
}
