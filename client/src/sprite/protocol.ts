// Sprite v1 wire codec (spec hide-and-seek.md §1): several messages per WebSocket message, little-endian.
// Errors are values: the caller closes the socket on any of them (§1.1 "Receiver errors").
import { compressBlock, decompressExactly, snappyPreamble } from './snappy';
import type { PixelCache } from './pixelCache';

export const ServerId = {
  DefineSprite: 0x01,
  DefineObject: 0x02,
  DeleteObject: 0x03,
  ClearObjects: 0x04,
  SetViewport: 0x05,
  DefineLayer: 0x06,
} as const;

export const ClientId = {
  InputText: 0x81,
  MousePosition: 0x82,
  MouseButton: 0x83,
  PlayerInput: 0x84,
  PlayerReady: 0x85,
  DebugSprites: 0x86,
  SpritesOff: 0x87,
} as const;

export const LayerType = {
  Map: 0,
  TopLeft: 1,
  TopRight: 2,
  BottomRight: 3,
  BottomLeft: 4,
  CentreTop: 5,
  CentreRight: 6,
  CentreLeft: 7,
  CentreBottom: 8,
  FullScreen: 9,
} as const;
export const MAX_LAYER_TYPE = LayerType.FullScreen; // §7.16: type 9 is defined, so it is accepted

export const LayerFlag = { Zoomable: 0x01, Ui: 0x02 } as const;

// §1.2 input bits; HNS gives bit 7 (C) to grab.
export const Button = { Up: 0x01, Down: 0x02, Left: 0x04, Right: 0x08, Select: 0x10, A: 0x20, B: 0x40, C: 0x80 } as const;
export const MouseCode = { Left: 1, Right: 2, Middle: 3 } as const;

// Limits mirror src/protocol/sprite_v1.hpp so both sides refuse the same bytes with the same error.
export const BYTES_PER_PIXEL = 4;
// The largest sprite we allocate: 4096×4096 RGBA is 64 MiB, far above the 1440×96 bands and 1364² cones.
export const MAX_SPRITE_RGBA_BYTES = 4096 * 4096 * BYTES_PER_PIXEL;
// A valid Snappy block spends at most 6 bytes per output byte, plus its preamble.
const MAX_SNAPPY_BYTES_PER_RGBA_BYTE = 6;
const MAX_SNAPPY_OVERHEAD_BYTES = 16;
// A seat's debug overlay is capped at 32 KiB per tick (§1.2).
export const MAX_DEBUG_SPRITES_BYTES = 32 * 1024;

// Named as in tests/vectors/sprite_v1.json; UnknownLayer comes from applying, Internal from our own bug.
export type SpriteError =
  | 'UnknownType' // a message id that is not defined in this direction
  | 'Truncated' // a field or payload runs past the end of the WebSocket message
  | 'TooLarge' // w·h·4, a pixel block or a debug payload above its maximum
  | 'BadSnappy' // pixels that are not a valid raw Snappy block
  | 'SizeMismatch' // a pixel block whose length is not w·h·4
  | 'ZeroDimension' // a sprite or viewport with a 0 width or height
  | 'BadBoolean' // a boolean byte other than 0 or 1
  | 'BadLayerType' // a layer type above MAX_LAYER_TYPE
  | 'UnknownLayer' // an object or viewport on a layer never defined (found when applying)
  | 'Internal'; // an exception we did not expect, turned into an error so the page never freezes

export interface DefineSprite {
  type: 'DefineSprite';
  spriteId: number;
  width: number;
  height: number;
  compressed: Uint8Array; // the raw Snappy block as sent; empty when the server stripped the pixels (0x87)
  rgba: Uint8Array | null; // straight RGBA, w·h·4 bytes; null when stripped
  label: string; // not drawn; bots and views read it
}
export interface DefineObject {
  type: 'DefineObject';
  objectId: number;
  x: number;
  y: number;
  z: number;
  layer: number;
  spriteId: number;
}
export interface DeleteObject { type: 'DeleteObject'; objectId: number }
export interface ClearObjects { type: 'ClearObjects' }
export interface SetViewport { type: 'SetViewport'; layer: number; width: number; height: number }
// `layerType` is the wire's "type" (renamed: `type` names the message here).
export interface DefineLayer { type: 'DefineLayer'; layer: number; layerType: number; flags: number }
export type ServerMessage = DefineSprite | DefineObject | DeleteObject | ClearObjects | SetViewport | DefineLayer;

export interface InputText { type: 'InputText'; text: string }
export interface MousePosition { type: 'MousePosition'; x: number; y: number; layer: number | null }
export interface MouseButton { type: 'MouseButton'; code: number; down: boolean }
export interface PlayerInput { type: 'PlayerInput'; mask: number }
export interface PlayerReady { type: 'PlayerReady' }
export interface DebugSprites { type: 'DebugSprites'; payload: Uint8Array } // server-style messages
export interface SpritesOff { type: 'SpritesOff' }
export type ClientMessage = InputText | MousePosition | MouseButton | PlayerInput | PlayerReady | DebugSprites | SpritesOff;

export type Decoded<T, E extends string = SpriteError> = { ok: true; messages: T[] } | { ok: false; error: E };

const LITTLE_ENDIAN = true;
const MAX_U16 = 0xffff; // labels and texts: only their u16 length bounds them
// Labels and texts are bytes as sent (UTF-8 by convention, never validated by the server either).
const lenientUtf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

// Thrown only inside a decoder (this one and compact.ts) and turned into a result by decodeAll.
export class Failure<E extends string = SpriteError> {
  constructor(readonly error: E) {}
}

export class Reader {
  pos = 0;
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get remaining(): number {
    return this.bytes.length - this.pos;
  }
  private need(size: number): number {
    if (this.remaining < size) throw new Failure('Truncated');
    const at = this.pos;
    this.pos += size;
    return at;
  }
  u8(): number {
    return this.view.getUint8(this.need(1));
  }
  u16(): number {
    return this.view.getUint16(this.need(2), LITTLE_ENDIAN);
  }
  i16(): number {
    return this.view.getInt16(this.need(2), LITTLE_ENDIAN);
  }
  u32(): number {
    return this.view.getUint32(this.need(4), LITTLE_ENDIAN);
  }
  // A length-prefixed payload: its maximum is checked before the bytes left, as the C++ codec does.
  blob(length: number, maxBytes: number): Uint8Array {
    if (length > maxBytes) throw new Failure('TooLarge');
    const at = this.need(length);
    return this.bytes.subarray(at, at + length);
  }
  // A label or text: bytes behind a u16 length, decoded leniently (only the length bounds it).
  text(): string {
    return lenientUtf8.decode(this.blob(this.u16(), MAX_U16));
  }
  boolean(): boolean {
    const value = this.u8();
    if (value > 1) throw new Failure('BadBoolean');
    return value === 1;
  }
}

// Field order decides which error wins, as in the C++ codec: sizes, then the block's preamble, then
// the label; the full Snappy check runs after the whole WebSocket message decoded (decodeServer).
function readDefineSprite(reader: Reader): DefineSprite {
  const spriteId = reader.u16();
  const width = reader.u16();
  const height = reader.u16();
  if (width === 0 || height === 0) throw new Failure('ZeroDimension');
  const rgbaBytes = width * height * BYTES_PER_PIXEL;
  if (rgbaBytes > MAX_SPRITE_RGBA_BYTES) throw new Failure('TooLarge');
  const compressed = reader.blob(reader.u32(), rgbaBytes * MAX_SNAPPY_BYTES_PER_RGBA_BYTE + MAX_SNAPPY_OVERHEAD_BYTES);
  if (compressed.length > 0) {
    const declared = snappyPreamble(compressed);
    if (declared === null) throw new Failure('BadSnappy');
    if (declared !== rgbaBytes) throw new Failure('SizeMismatch');
  }
  const label = lenientUtf8.decode(reader.blob(reader.u16(), MAX_U16));
  return { type: 'DefineSprite', spriteId, width, height, compressed, rgba: null, label };
}

// One Sprite v1 server message after its type byte, or null for an id that is not one: the compact
// watch stream (compact.ts) carries these six unchanged among its own.
export function readSpriteMessage(reader: Reader, id: number): ServerMessage | null {
  switch (id) {
    case ServerId.DefineSprite:
      return readDefineSprite(reader);
    case ServerId.DefineObject:
      return {
        type: 'DefineObject',
        objectId: reader.u16(),
        x: reader.i16(),
        y: reader.i16(),
        z: reader.i16(),
        layer: reader.u8(),
        spriteId: reader.u16(),
      };
    case ServerId.DeleteObject:
      return { type: 'DeleteObject', objectId: reader.u16() };
    case ServerId.ClearObjects:
      return { type: 'ClearObjects' };
    case ServerId.SetViewport: {
      const message: SetViewport = { type: 'SetViewport', layer: reader.u8(), width: reader.u16(), height: reader.u16() };
      if (message.width === 0 || message.height === 0) throw new Failure('ZeroDimension');
      return message;
    }
    case ServerId.DefineLayer: {
      const layer = reader.u8();
      const layerType = reader.u8();
      if (layerType > MAX_LAYER_TYPE) throw new Failure('BadLayerType'); // before flags, as in C++
      return { type: 'DefineLayer', layer, layerType, flags: reader.u8() };
    }
    default:
      return null;
  }
}

function readServerMessage(reader: Reader): ServerMessage {
  const message = readSpriteMessage(reader, reader.u8());
  if (!message) throw new Failure('UnknownType');
  return message;
}

export const isClientId = (byte: number): boolean => byte >= ClientId.InputText && byte <= ClientId.SpritesOff;

function readClientMessage(reader: Reader): ClientMessage {
  const id = reader.u8();
  switch (id) {
    case ClientId.InputText:
      // Kept as sent; the server, not the codec, drops what the reference drops (§1.2).
      return { type: 'InputText', text: lenientUtf8.decode(reader.blob(reader.u16(), MAX_U16)) };
    case ClientId.MousePosition: {
      const x = reader.i16();
      const y = reader.i16();
      // The layer byte is optional: present only if the next byte does not start a client message.
      const layer = reader.remaining > 0 && !isClientId(reader.bytes[reader.pos]!) ? reader.u8() : null;
      return { type: 'MousePosition', x, y, layer };
    }
    case ClientId.MouseButton:
      return { type: 'MouseButton', code: reader.u8(), down: reader.boolean() };
    case ClientId.PlayerInput:
      return { type: 'PlayerInput', mask: reader.u8() };
    case ClientId.PlayerReady:
      return { type: 'PlayerReady' };
    case ClientId.DebugSprites:
      return { type: 'DebugSprites', payload: reader.blob(reader.u32(), MAX_DEBUG_SPRITES_BYTES).slice() };
    case ClientId.SpritesOff:
      return { type: 'SpritesOff' };
    default:
      throw new Failure('UnknownType');
  }
}

// Reads messages to exhaustion: a Failure thrown by `read` becomes the result's error.
export function decodeAll<T, E extends string = SpriteError>(packet: Uint8Array, read: (reader: Reader) => T): Decoded<T, E | SpriteError> {
  const reader = new Reader(packet);
  const messages: T[] = [];
  try {
    while (reader.remaining > 0) messages.push(read(reader));
  } catch (failure) {
    if (failure instanceof Failure) return { ok: false, error: (failure as Failure<E | SpriteError>).error };
    return { ok: false, error: 'Internal' };
  }
  return { ok: true, messages };
}

// The full check of one Define Sprite: its Snappy pixels decompressed into `message.rgba` (a stripped
// sprite keeps null). With a PixelCache, a block byte-identical to one decoded recently yields the same RGBA array.
export function decodeSpritePixels(message: DefineSprite, cache?: PixelCache): SpriteError | null {
  if (message.compressed.length === 0) return null;
  const rgbaBytes = message.width * message.height * BYTES_PER_PIXEL;
  const pixels = cache
    ? cache.decode(message.compressed, message.width, message.height, (block) => decompressExactly(block, rgbaBytes))
    : decompressExactly(message.compressed, rgbaBytes);
  if (!pixels.ok) return pixels.error;
  message.rgba = pixels.bytes;
  return null;
}

// One WebSocket message from the server: 0..n messages back to back; an empty one is a valid empty tick.
// Pixels are fully checked and decompressed once every message decoded, as decode_server_checked does.
export function decodeServer(packet: Uint8Array, cache?: PixelCache): Decoded<ServerMessage> {
  const decoded = decodeAll(packet, readServerMessage);
  if (!decoded.ok) return decoded;
  for (const message of decoded.messages) {
    if (message.type !== 'DefineSprite') continue;
    const error = decodeSpritePixels(message, cache);
    if (error) return { ok: false, error };
  }
  return decoded;
}
// One WebSocket message from a client (used by tests and tools; the server's own parser is more lenient).
export const decodeClient = (packet: Uint8Array): Decoded<ClientMessage> => decodeAll(packet, readClientMessage);

// Encoding our own message can only fail through our own bug, so it throws with the reason.
export class EncodeError extends Error {}

export class Writer {
  private readonly parts: Uint8Array[] = [];
  u8(value: number): this {
    return this.int(value, 0, 0xff, 1);
  }
  u16(value: number): this {
    return this.int(value, 0, 0xffff, 2);
  }
  i16(value: number): this {
    return this.int(value, -0x8000, 0x7fff, 2);
  }
  u32(value: number): this {
    return this.int(value, 0, 0xffffffff, 4);
  }
  bytes(data: Uint8Array): this {
    this.parts.push(data);
    return this;
  }
  // A label or text as UTF-8 behind its u16 length.
  text(value: string): this {
    const bytes = utf8Encoder.encode(value);
    return this.u16(bytes.length).bytes(bytes);
  }
  result(): Uint8Array {
    return concat(this.parts);
  }
  private int(value: number, min: number, max: number, size: number): this {
    if (!Number.isInteger(value) || value < min || value > max) throw new EncodeError(`${value} does not fit ${size} bytes`);
    const unsigned = value < 0 ? value + 2 ** (8 * size) : value;
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = Math.floor(unsigned / 2 ** (8 * i)) & 0xff;
    this.parts.push(out);
    return this;
  }
}

// 0x85 and 0x87 count only as a WebSocket message of exactly that one byte: send them alone.
export function encodeClient(message: ClientMessage): Uint8Array {
  switch (message.type) {
    case 'InputText': {
      const text = utf8Encoder.encode(message.text);
      return new Writer().u8(ClientId.InputText).u16(text.length).bytes(text).result();
    }
    case 'MousePosition': {
      const writer = new Writer().u8(ClientId.MousePosition).i16(message.x).i16(message.y);
      if (message.layer !== null) {
        // Such a byte would be read back as the next message (§1.2).
        if (isClientId(message.layer)) throw new EncodeError(`mouse layer ${message.layer} reads as a message id`);
        writer.u8(message.layer);
      }
      return writer.result();
    }
    case 'MouseButton':
      return new Writer().u8(ClientId.MouseButton).u8(message.code).u8(message.down ? 1 : 0).result();
    case 'PlayerInput':
      return new Writer().u8(ClientId.PlayerInput).u8(message.mask).result();
    case 'PlayerReady':
      return Uint8Array.of(ClientId.PlayerReady);
    case 'DebugSprites':
      if (message.payload.length > MAX_DEBUG_SPRITES_BYTES) throw new EncodeError('debug overlay above 32 KiB');
      return new Writer().u8(ClientId.DebugSprites).u32(message.payload.length).bytes(message.payload).result();
    case 'SpritesOff':
      return Uint8Array.of(ClientId.SpritesOff);
  }
}

// Server-style messages: the payload of Debug Sprites (0x86), and fixtures for tests.
// A sprite's `compressed` block is written as given (see spriteMessage to build one from RGBA).
export function encodeServer(message: ServerMessage): Uint8Array {
  switch (message.type) {
    case 'DefineSprite': {
      const pixels = message.compressed;
      const label = utf8Encoder.encode(message.label);
      return new Writer()
        .u8(ServerId.DefineSprite)
        .u16(message.spriteId)
        .u16(message.width)
        .u16(message.height)
        .u32(pixels.length)
        .bytes(pixels)
        .u16(label.length)
        .bytes(label)
        .result();
    }
    case 'DefineObject':
      return new Writer()
        .u8(ServerId.DefineObject)
        .u16(message.objectId)
        .i16(message.x)
        .i16(message.y)
        .i16(message.z)
        .u8(message.layer)
        .u16(message.spriteId)
        .result();
    case 'DeleteObject':
      return new Writer().u8(ServerId.DeleteObject).u16(message.objectId).result();
    case 'ClearObjects':
      return Uint8Array.of(ServerId.ClearObjects);
    case 'SetViewport':
      return new Writer().u8(ServerId.SetViewport).u8(message.layer).u16(message.width).u16(message.height).result();
    case 'DefineLayer':
      return new Writer().u8(ServerId.DefineLayer).u8(message.layer).u8(message.layerType).u8(message.flags).result();
  }
}

// A Define Sprite from straight RGBA (null for a stripped sprite), compressed with snappyjs.
export function spriteMessage(spriteId: number, width: number, height: number, rgba: Uint8Array | null, label = ''): DefineSprite {
  const compressed = rgba ? compressBlock(rgba) : new Uint8Array(0);
  return { type: 'DefineSprite', spriteId, width, height, compressed, rgba, label };
}

// Several messages back to back, as one WebSocket message carries them.
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// Frames as hex for the golden vectors, written once for every codec.
export { bytesToHex, hexToBytes } from '../net/hex';
