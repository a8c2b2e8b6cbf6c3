// Builders for compact-stream test packets: messages from plain values, blocks packed with fflate's zlib.
import { zlibSync } from 'fflate';
import { encodeCompact } from './compact';
import type { CompactMessage, DefineBlock } from './compact';
import { concat } from './protocol';

export function compactPacket(...messages: CompactMessage[]): Uint8Array {
  return concat(messages.map(encodeCompact));
}

export const frameMark = (tick: number, flags = 0): CompactMessage => ({ type: 'FrameMark', tick, flags });
export const useBlock = (spriteId: number, blockId: number, label = ''): CompactMessage => ({ type: 'UseBlock', spriteId, blockId, label });
export const relabel = (spriteId: number, label: string): CompactMessage => ({ type: 'Relabel', spriteId, label });
export const forgetBlock = (blockId: number): CompactMessage => ({ type: 'ForgetBlock', blockId });

// A width×height block of one straight-RGBA colour, stored at 1/scale.
export function solidBlock(blockId: number, width: number, height: number, rgba: readonly number[], scale = 1): DefineBlock {
  const small = new Uint8Array((width / scale) * (height / scale) * 4);
  for (let i = 0; i < small.length; i++) small[i] = rgba[i % 4]!;
  return { type: 'DefineBlock', blockId, width, height, scale, zlib: zlibSync(small, { level: 9 }), rgba: null };
}

// The widened pixels solidBlock stands for.
export function solidRgba(width: number, height: number, rgba: readonly number[]): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  for (let i = 0; i < out.length; i++) out[i] = rgba[i % 4]!;
  return out;
}
