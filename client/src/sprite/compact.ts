// The compact watch stream's codec (docs/hide-and-seek.md, "The compact watch stream"; C++
// src/protocol/hns_compact.*): Sprite v1's six server messages, read by protocol.ts, plus frame marks
// and a dictionary of zlib pixel blocks that sprites are made from. Errors are values, never thrown.
import { smallImageBytes, unpackBlock, zlibHeaderOk } from './blockPixels';
import type { Inflated, PackedBlock } from './blockPixels';
import type { PixelCache } from './pixelCache';
import { BYTES_PER_PIXEL, Failure, MAX_SPRITE_RGBA_BYTES, Reader, Writer, decodeAll, decodeSpritePixels, encodeServer, readSpriteMessage } from './protocol';
import type { Decoded, ServerMessage, SpriteError } from './protocol';

export const CompactId = {
  Frame: 0x10,
  DefineBlock: 0x11,
  UseBlock: 0x12,
  Relabel: 0x13,
  ForgetBlock: 0x14,
} as const;

export const FrameFlag = {
  Keyframe: 0x01, // the messages that follow rebuild the whole board
  Resync: 0x02, // frames before this one were skipped for this viewer: it could not keep up
} as const;
const ALL_FRAME_FLAGS = FrameFlag.Keyframe | FrameFlag.Resync;

// The board is drawn at 2×: a block keeps the image at 1/scale and the receiver widens it again.
export const MAX_BLOCK_SCALE = 8;
// What a receiver keeps at least (hns_compact.hpp); the server's dictionary stays well under both.
export const MAX_LIVE_BLOCKS = 1024;
export const MAX_LIVE_BLOCK_BYTES = 32 << 20; // of zlib bytes, as the server counts its dictionary
// A valid stream never grows more than this over its image: stored deflate blocks add 5 bytes per
// 64 KiB, the zlib wrapper 6, and the encoder some slack (max_block_bytes in hns_compact.cpp).
const STORED_BLOCK_BYTES = 65535;
const STORED_BLOCK_OVERHEAD_BYTES = 5;
const ZLIB_WRAPPER_BYTES = 6;
const ENCODER_SLACK_BYTES = 64;

export type CompactError =
  | SpriteError
  | 'BadFlags' // a Frame flag other than keyframe and resync
  | 'BadScale' // a block scale outside 1..8 or not dividing its width and height
  | 'BadZlib' // a block that is not one whole zlib stream
  | 'UnknownBlock' // Use Block of an id not in the table (found when applying)
  | 'UnknownSprite' // Relabel of a sprite never defined (found when applying)
  | 'TooManyBlocks'; // a new block past MAX_LIVE_BLOCKS or MAX_LIVE_BLOCK_BYTES (found when applying)

export interface FrameMark { type: 'FrameMark'; tick: number; flags: number }
export interface DefineBlock {
  type: 'DefineBlock';
  blockId: number;
  width: number; // wire pixels, as a sprite made from it
  height: number;
  scale: number;
  zlib: Uint8Array; // of (width/scale)·(height/scale)·4 straight RGBA bytes
  rgba: Uint8Array | null; // the widened width·height·4 pixels, filled by the full check
}
export interface UseBlock { type: 'UseBlock'; spriteId: number; blockId: number; label: string }
export interface Relabel { type: 'Relabel'; spriteId: number; label: string }
export interface ForgetBlock { type: 'ForgetBlock'; blockId: number }
export type CompactOnlyMessage = FrameMark | DefineBlock | UseBlock | Relabel | ForgetBlock;
export type CompactMessage = ServerMessage | CompactOnlyMessage;

export function maxBlockBytes(width: number, height: number, scale: number): number {
  if (scale === 0) return 0;
  const small = smallImageBytes(width, height, scale);
  return small + (Math.floor(small / STORED_BLOCK_BYTES) + 1) * STORED_BLOCK_OVERHEAD_BYTES + ZLIB_WRAPPER_BYTES + ENCODER_SLACK_BYTES;
}

// The codec that names a block's pixels in a PixelCache: the same stream at another scale is another image.
export const blockCodec = (scale: number): string => `zlib/${scale}`;

// Field order decides which error wins, as in hns_compact.cpp: sizes, scale, image size, the stream's
// length, then its zlib header; inflating (the full check) runs once the whole message decoded.
function readDefineBlock(reader: Reader): DefineBlock {
  const blockId = reader.u16();
  const width = reader.u16();
  const height = reader.u16();
  const scale = reader.u8();
  if (width === 0 || height === 0) throw new Failure('ZeroDimension');
  if (scale < 1 || scale > MAX_BLOCK_SCALE || width % scale !== 0 || height % scale !== 0) throw new Failure<CompactError>('BadScale');
  if (width * height * BYTES_PER_PIXEL > MAX_SPRITE_RGBA_BYTES) throw new Failure('TooLarge');
  const zlib = reader.blob(reader.u32(), maxBlockBytes(width, height, scale));
  if (!zlibHeaderOk(zlib)) throw new Failure<CompactError>('BadZlib');
  return { type: 'DefineBlock', blockId, width, height, scale, zlib, rgba: null };
}

function readCompactMessage(reader: Reader): CompactMessage {
  const id = reader.u8();
  const shared = readSpriteMessage(reader, id);
  if (shared) return shared;
  switch (id) {
    case CompactId.Frame: {
      const tick = reader.u32();
      const flags = reader.u8();
      if ((flags & ~ALL_FRAME_FLAGS) !== 0) throw new Failure<CompactError>('BadFlags');
      return { type: 'FrameMark', tick, flags };
    }
    case CompactId.DefineBlock:
      return readDefineBlock(reader);
    case CompactId.UseBlock:
      return { type: 'UseBlock', spriteId: reader.u16(), blockId: reader.u16(), label: reader.text() };
    case CompactId.Relabel:
      return { type: 'Relabel', spriteId: reader.u16(), label: reader.text() };
    case CompactId.ForgetBlock:
      return { type: 'ForgetBlock', blockId: reader.u16() };
    default:
      throw new Failure('UnknownType');
  }
}

// A block's widened pixels: the cached array when this very block was unpacked recently.
export function blockRgba(block: PackedBlock, cache?: PixelCache): Inflated {
  const unpack = () => unpackBlock(block);
  return cache ? cache.decode(block.zlib, block.width, block.height, unpack, blockCodec(block.scale)) : unpack();
}

// One WebSocket message of the compact stream, decoded to exhaustion, then fully checked as
// decode_checked does: every block inflated (into `rgba`), every Define Sprite's Snappy decompressed.
export function decodeCompact(packet: Uint8Array, cache?: PixelCache): Decoded<CompactMessage, CompactError> {
  const decoded = decodeAll<CompactMessage, CompactError>(packet, readCompactMessage);
  if (!decoded.ok) return decoded;
  for (const message of decoded.messages) {
    if (message.type === 'DefineSprite') {
      const error = decodeSpritePixels(message, cache);
      if (error) return { ok: false, error };
    } else if (message.type === 'DefineBlock') {
      const pixels = blockRgba(message, cache);
      if (!pixels.ok) return { ok: false, error: pixels.error };
      message.rgba = pixels.bytes;
    }
  }
  return decoded;
}

// The server's side, for fixtures and the golden vectors; a block's `zlib` is written as given.
export function encodeCompact(message: CompactMessage): Uint8Array {
  switch (message.type) {
    case 'FrameMark':
      return new Writer().u8(CompactId.Frame).u32(message.tick).u8(message.flags).result();
    case 'DefineBlock':
      return new Writer()
        .u8(CompactId.DefineBlock)
        .u16(message.blockId)
        .u16(message.width)
        .u16(message.height)
        .u8(message.scale)
        .u32(message.zlib.length)
        .bytes(message.zlib)
        .result();
    case 'UseBlock':
      return new Writer().u8(CompactId.UseBlock).u16(message.spriteId).u16(message.blockId).text(message.label).result();
    case 'Relabel':
      return new Writer().u8(CompactId.Relabel).u16(message.spriteId).text(message.label).result();
    case 'ForgetBlock':
      return new Writer().u8(CompactId.ForgetBlock).u16(message.blockId).result();
    default:
      return encodeServer(message);
  }
}
