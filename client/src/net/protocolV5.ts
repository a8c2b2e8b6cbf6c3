// Protocol v5, the arena with prediction, per-client deltas and interest management.
// Mirrors src/protocol/v5.hpp; the golden vectors in tests/vectors/v5.json keep them in step.
// Hand-written rather than schema-driven: update records choose their layout by a form in their head.
import { EncodeError } from './codec';
import type { DecodeError, Decoded, Unknown } from './codec';

export const VERSION = 5;
export const MAX_INBOUND_FRAME_BYTES = 1024; // what the server reads after Hello
export const MAX_SERVER_FRAME_BYTES = 256 * 1024; // what this client accepts
export const MAX_NAME_BYTES = 32;
export const MAX_OBSTACLES = 4096;
export const MAX_SECTION_COUNT = 16383;
export const SLOT_LIMIT = 1 << 14;
export const MAX_COLOUR = 0xffffff;
const LEAVE_BYTES = 2;
const ENTER_BYTES = 13;
const MIN_UPDATE_BYTES = 3;
const OBSTACLE_BYTES = 12;

export const Id = { Hello: 0x01, Input: 0x02, Ping: 0x03, Welcome: 0x81, Pong: 0x83, StaticWorld: 0x84, Frame: 0x85 } as const;
export const FrameFlags = { Keyframe: 1, FarGrid: 2, Known: 3 } as const;
export const Form = { DxDy: 0, Dx: 1, Dy: 2, Fields: 3 } as const;
export const Fields = { Qx: 1, Qy: 2, Colour: 4, Known: 7 } as const;

export interface Hello { type: 'Hello'; version: number; name: string }
export interface Input { type: 'Input'; seq: number; mask: number }
export interface Ping { type: 'Ping'; clientTimeMs: number }
export interface Welcome {
  type: 'Welcome';
  version: number;
  playerId: number;
  selfSlot: number;
  tickRate: number;
  width: number;
  height: number;
  playerSpeed: number;
  playerRadius: number;
  quantumExp: number;
  cellSize: number;
  gridCols: number;
  gridRows: number;
  windowCells: number;
  farEvery: number;
}
export interface Pong { type: 'Pong'; clientTimeMs: number; serverTick: number }
export interface Obstacle { x: number; y: number; radius: number }
export interface StaticWorld { type: 'StaticWorld'; firstId: number; colour: number; obstacles: Obstacle[] }
export interface Enter { slot: number; id: number; qx: number; qy: number; colour: number }
// Fields a form does not carry are 0, so each record has one representation.
export interface Update { slot: number; form: number; dx: number; dy: number; fields: number; qx: number; qy: number; colour: number }
export interface Frame {
  type: 'Frame';
  tick: number;
  baseTick: number;
  flags: number;
  ackSeq: number;
  inputQueue: number;
  mask: number;
  selfX: number;
  selfY: number;
  leaves: number[];
  enters: Enter[];
  updates: Update[];
  farCols: number;
  farRows: number;
  far: number[];
}

export type ClientMessage = Hello | Input | Ping;
export type ServerMessage = Welcome | Pong | StaticWorld | Frame;

class Failure {
  constructor(readonly error: DecodeError) {}
}
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

class Reader {
  private pos = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  remaining(): number {
    return this.bytes.length - this.pos;
  }
  private take(size: number): number {
    if (this.remaining() < size) throw new Failure('Truncated');
    const at = this.pos;
    this.pos += size;
    return at;
  }
  u8(): number { return this.view.getUint8(this.take(1)); }
  i8(): number { return this.view.getInt8(this.take(1)); }
  u16(): number { return this.view.getUint16(this.take(2), true); }
  u24(): number {
    const at = this.take(3);
    return this.bytes[at]! | (this.bytes[at + 1]! << 8) | (this.bytes[at + 2]! << 16);
  }
  u32(): number { return this.view.getUint32(this.take(4), true); }
  i64(): number { return Number(this.view.getBigInt64(this.take(8), true)); }
  f32(): number { return this.view.getFloat32(this.take(4), true); }
  // A count is checked against its maximum and the bytes left before anything is allocated.
  count(max: number, minElementBytes: number): number {
    const n = this.u16();
    if (n > max || n * minElementBytes > this.remaining()) throw new Failure('CountTooLarge');
    return n;
  }
  string(maxBytes: number): string {
    const length = this.u8();
    if (length > maxBytes) throw new Failure('LengthTooLarge');
    const at = this.take(length);
    try {
      return strictUtf8.decode(this.bytes.subarray(at, at + length));
    } catch {
      throw new Failure('InvalidUtf8');
    }
  }
}

class Writer {
  private bytes = new Uint8Array(64);
  private view = new DataView(this.bytes.buffer);
  private length = 0;
  result(): Uint8Array { return this.bytes.slice(0, this.length); }
  private reserve(size: number): number {
    if (this.length + size > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + size));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    const at = this.length;
    this.length += size;
    return at;
  }
  private check(value: number, min: number, max: number, what: string): void {
    if (!Number.isInteger(value) || value < min || value > max) throw new EncodeError(`${value} does not fit ${what}`);
  }
  u8(v: number): void { this.check(v, 0, 0xff, 'u8'); const at = this.reserve(1); this.view.setUint8(at, v); }
  i8(v: number): void { this.check(v, -128, 127, 'i8'); const at = this.reserve(1); this.view.setInt8(at, v); }
  u16(v: number): void { this.check(v, 0, 0xffff, 'u16'); const at = this.reserve(2); this.view.setUint16(at, v, true); }
  u24(v: number): void {
    this.check(v, 0, MAX_COLOUR, 'u24');
    const at = this.reserve(3);
    this.bytes[at] = v & 0xff;
    this.bytes[at + 1] = (v >> 8) & 0xff;
    this.bytes[at + 2] = v >> 16;
  }
  u32(v: number): void { this.check(v, 0, 0xffffffff, 'u32'); const at = this.reserve(4); this.view.setUint32(at, v, true); }
  i64(v: number): void {
    this.check(v, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'i64');
    const at = this.reserve(8); this.view.setBigInt64(at, BigInt(v), true);
  }
  f32(v: number): void {
    if (typeof v !== 'number' || Number.isNaN(v)) throw new EncodeError('f32 field is not a number');
    const at = this.reserve(4); this.view.setFloat32(at, v, true);
  }
  count(n: number, max: number): void {
    if (n > max) throw new EncodeError(`${n} elements > ${max}`);
    this.u16(n);
  }
  string(text: string, maxBytes: number): void {
    const encoded = utf8Encoder.encode(text);
    if (encoded.length > maxBytes) throw new EncodeError(`string of ${encoded.length} bytes > ${maxBytes}`);
    this.u8(encoded.length);
    this.bytes.set(encoded, this.reserve(encoded.length));
  }
}

function readUpdate(r: Reader): Update {
  const head = r.u16();
  const u: Update = { slot: head & (SLOT_LIMIT - 1), form: head >> 14, dx: 0, dy: 0, fields: 0, qx: 0, qy: 0, colour: 0 };
  switch (u.form) {
    case Form.DxDy: u.dx = r.i8(); u.dy = r.i8(); return u;
    case Form.Dx: u.dx = r.i8(); return u;
    case Form.Dy: u.dy = r.i8(); return u;
  }
  u.fields = r.u8();
  // An empty mask would be a record that changes nothing: one meaning, one encoding.
  if (u.fields === 0 || (u.fields & ~Fields.Known) !== 0) throw new Failure('InvalidFieldMask');
  if (u.fields & Fields.Qx) u.qx = r.u16();
  if (u.fields & Fields.Qy) u.qy = r.u16();
  if (u.fields & Fields.Colour) u.colour = r.u24();
  return u;
}

function readFrame(r: Reader): Frame {
  const tick = r.u32();
  const baseTick = r.u32();
  const flags = r.u8();
  if ((flags & ~FrameFlags.Known) !== 0) throw new Failure('InvalidFieldMask');
  const ackSeq = r.u32();
  const inputQueue = r.u8();
  const mask = r.u8();
  const selfX = r.f32();
  const selfY = r.f32();
  const leaves: number[] = [];
  for (let n = r.count(MAX_SECTION_COUNT, LEAVE_BYTES); n > 0; n--) leaves.push(r.u16());
  const enters: Enter[] = [];
  for (let n = r.count(MAX_SECTION_COUNT, ENTER_BYTES); n > 0; n--) {
    enters.push({ slot: r.u16(), id: r.u32(), qx: r.u16(), qy: r.u16(), colour: r.u24() });
  }
  const updates: Update[] = [];
  for (let n = r.count(MAX_SECTION_COUNT, MIN_UPDATE_BYTES); n > 0; n--) updates.push(readUpdate(r));
  let farCols = 0;
  let farRows = 0;
  const far: number[] = [];
  if (flags & FrameFlags.FarGrid) {
    farCols = r.u8();
    farRows = r.u8();
    if (farCols * farRows > r.remaining()) throw new Failure('Truncated');
    for (let n = farCols * farRows; n > 0; n--) far.push(r.u8());
  }
  return { type: 'Frame', tick, baseTick, flags, ackSeq, inputQueue, mask, selfX, selfY, leaves, enters, updates, farCols, farRows, far };
}

function readStaticWorld(r: Reader): StaticWorld {
  const firstId = r.u32();
  const count = r.u16();
  const colour = r.u32();
  if (count > MAX_OBSTACLES || count * OBSTACLE_BYTES > r.remaining()) throw new Failure('CountTooLarge');
  const obstacles: Obstacle[] = [];
  for (let n = 0; n < count; n++) obstacles.push({ x: r.f32(), y: r.f32(), radius: r.f32() });
  return { type: 'StaticWorld', firstId, colour, obstacles };
}

function readWelcome(r: Reader): Welcome {
  return {
    type: 'Welcome', version: r.u8(), playerId: r.u32(), selfSlot: r.u16(), tickRate: r.u8(), width: r.f32(), height: r.f32(),
    playerSpeed: r.f32(), playerRadius: r.f32(), quantumExp: r.i8(), cellSize: r.u16(), gridCols: r.u8(), gridRows: r.u8(),
    windowCells: r.u8(), farEvery: r.u8(),
  };
}

type ReadBody<T> = (r: Reader) => T;
const clientReaders = new Map<number, ReadBody<ClientMessage>>([
  [Id.Hello, (r) => ({ type: 'Hello', version: r.u8(), name: r.string(MAX_NAME_BYTES) })],
  [Id.Input, (r) => ({ type: 'Input', seq: r.u32(), mask: r.u8() })],
  [Id.Ping, (r) => ({ type: 'Ping', clientTimeMs: r.i64() })],
]);
const serverReaders = new Map<number, ReadBody<ServerMessage>>([
  [Id.Welcome, readWelcome],
  [Id.Pong, (r) => ({ type: 'Pong', clientTimeMs: r.i64(), serverTick: r.u32() })],
  [Id.StaticWorld, readStaticWorld],
  [Id.Frame, readFrame],
]);

function decodeWith<T>(readers: ReadonlyMap<number, ReadBody<T>>, frame: Uint8Array): Decoded<T | Unknown> {
  if (frame.length === 0) return { ok: false, error: 'Empty' };
  const id = frame[0]!;
  const read = readers.get(id);
  if (!read) return { ok: true, message: { type: 'Unknown', id } };
  const reader = new Reader(frame.subarray(1));
  try {
    const message = read(reader);
    if (reader.remaining() !== 0) return { ok: false, error: 'TrailingBytes' };
    return { ok: true, message };
  } catch (failure) {
    if (failure instanceof Failure) return { ok: false, error: failure.error };
    throw failure;
  }
}

function writeUpdate(w: Writer, u: Update): void {
  if (u.slot >= SLOT_LIMIT || u.form > Form.Fields) throw new EncodeError(`bad update head ${u.slot}/${u.form}`);
  w.u16(u.slot | (u.form << 14));
  switch (u.form) {
    case Form.DxDy: w.i8(u.dx); w.i8(u.dy); return;
    case Form.Dx: w.i8(u.dx); return;
    case Form.Dy: w.i8(u.dy); return;
  }
  if (u.fields === 0 || (u.fields & ~Fields.Known) !== 0) throw new EncodeError(`bad field mask ${u.fields}`);
  w.u8(u.fields);
  if (u.fields & Fields.Qx) w.u16(u.qx);
  if (u.fields & Fields.Qy) w.u16(u.qy);
  if (u.fields & Fields.Colour) w.u24(u.colour);
}

function writeFrame(w: Writer, m: Frame): void {
  if ((m.flags & ~FrameFlags.Known) !== 0) throw new EncodeError(`bad flags ${m.flags}`);
  w.u32(m.tick); w.u32(m.baseTick); w.u8(m.flags); w.u32(m.ackSeq); w.u8(m.inputQueue); w.u8(m.mask); w.f32(m.selfX); w.f32(m.selfY);
  w.count(m.leaves.length, MAX_SECTION_COUNT);
  for (const slot of m.leaves) w.u16(slot);
  w.count(m.enters.length, MAX_SECTION_COUNT);
  for (const e of m.enters) { w.u16(e.slot); w.u32(e.id); w.u16(e.qx); w.u16(e.qy); w.u24(e.colour); }
  w.count(m.updates.length, MAX_SECTION_COUNT);
  for (const u of m.updates) writeUpdate(w, u);
  if ((m.flags & FrameFlags.FarGrid) === 0) {
    if (m.farCols !== 0 || m.farRows !== 0 || m.far.length !== 0) throw new EncodeError('far grid without its flag');
    return;
  }
  if (m.far.length !== m.farCols * m.farRows) throw new EncodeError('far grid size differs from cols × rows');
  w.u8(m.farCols); w.u8(m.farRows);
  for (const c of m.far) w.u8(c);
}

export function encodeClient(m: ClientMessage): Uint8Array {
  const w = new Writer();
  switch (m.type) {
    case 'Hello': w.u8(Id.Hello); w.u8(m.version); w.string(m.name, MAX_NAME_BYTES); break;
    case 'Input': w.u8(Id.Input); w.u32(m.seq); w.u8(m.mask); break;
    case 'Ping': w.u8(Id.Ping); w.i64(m.clientTimeMs); break;
  }
  return w.result();
}

export function encodeServer(m: ServerMessage): Uint8Array {
  const w = new Writer();
  switch (m.type) {
    case 'Welcome':
      w.u8(Id.Welcome); w.u8(m.version); w.u32(m.playerId); w.u16(m.selfSlot); w.u8(m.tickRate); w.f32(m.width); w.f32(m.height);
      w.f32(m.playerSpeed); w.f32(m.playerRadius); w.i8(m.quantumExp); w.u16(m.cellSize); w.u8(m.gridCols); w.u8(m.gridRows);
      w.u8(m.windowCells); w.u8(m.farEvery);
      break;
    case 'Pong': w.u8(Id.Pong); w.i64(m.clientTimeMs); w.u32(m.serverTick); break;
    case 'StaticWorld':
      w.u8(Id.StaticWorld); w.u32(m.firstId); w.count(m.obstacles.length, MAX_OBSTACLES); w.u32(m.colour);
      for (const o of m.obstacles) { w.f32(o.x); w.f32(o.y); w.f32(o.radius); }
      break;
    case 'Frame': w.u8(Id.Frame); writeFrame(w, m); break;
  }
  return w.result();
}

export const decodeClient = (frame: Uint8Array): Decoded<ClientMessage | Unknown> => decodeWith(clientReaders, frame);
export const decodeServer = (frame: Uint8Array): Decoded<ServerMessage | Unknown> => decodeWith(serverReaders, frame);
